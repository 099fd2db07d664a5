// Characters that change how text reads without showing themselves: a
// right-to-left override can make "gpj.exe" look like "exe.jpg", a zero
// width space makes two ids that look equal differ, a control character
// prints nothing. Wherever the page shows text that came from a user (a
// path, a body, a msg that quotes them, a record), each such character is
// drawn as a badge naming it (⟨U+202E⟩) in its place, so what is seen is
// what was sent, and the text around it keeps its order.

const NAMES = {
  0x00ad: "SOFT HYPHEN",
  0x061c: "ARABIC LETTER MARK",
  0x180e: "MONGOLIAN VOWEL SEPARATOR",
  0x200b: "ZERO WIDTH SPACE",
  0x200e: "LEFT-TO-RIGHT MARK",
  0x200f: "RIGHT-TO-LEFT MARK",
  0x2028: "LINE SEPARATOR",
  0x2029: "PARAGRAPH SEPARATOR",
  0x202a: "LEFT-TO-RIGHT EMBEDDING",
  0x202b: "RIGHT-TO-LEFT EMBEDDING",
  0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE",
  0x202e: "RIGHT-TO-LEFT OVERRIDE",
  0x2060: "WORD JOINER",
  0x2061: "FUNCTION APPLICATION",
  0x2062: "INVISIBLE TIMES",
  0x2063: "INVISIBLE SEPARATOR",
  0x2064: "INVISIBLE PLUS",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE (BYTE ORDER MARK)",
  0xfff9: "INTERLINEAR ANNOTATION ANCHOR",
  0xfffa: "INTERLINEAR ANNOTATION SEPARATOR",
  0xfffb: "INTERLINEAR ANNOTATION TERMINATOR",
};

// Controls (C0 but tab and line feed, DEL, C1), the named ones above, and the tag characters
// (U+E0000 block), which hide whole ASCII strings. Zero width joiners stay: emoji and scripts need them.
// eslint-disable-next-line no-control-regex -- finding control characters is what it is for
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
const ANY = new RegExp(HIDDEN.source);

/** Whether `text` holds a character that would not show (cheap: one scan, no allocation when not). */
export const hasHidden = (text) => ANY.test(text);

/** The badge's text for code point `cp`: ⟨U+202E⟩. */
export function badgeText(cp) {
  return `⟨U+${cp.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/** The name a badge's tooltip gives. */
export function hiddenName(cp) {
  if (NAMES[cp]) return NAMES[cp];
  if (cp >= 0xe0000) return "TAG CHARACTER";
  return "CONTROL CHARACTER";
}

/**
 * `text` as DOM nodes: plain text where it shows, a `mark.hidden-char`
 * badge for each character that would not. One text node when there is
 * nothing to show, which is nearly always.
 */
export function visibleNodes(text) {
  if (!ANY.test(text)) return [document.createTextNode(text)];
  const out = [];
  let last = 0;
  for (const m of text.matchAll(HIDDEN)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    const cp = m[0].codePointAt(0);
    const badge = document.createElement("mark");
    badge.className = "hidden-char";
    badge.title = `${hiddenName(cp)}: a character that does not show, sent as it is`;
    badge.dataset.cp = cp.toString(16);
    badge.textContent = badgeText(cp);
    out.push(badge);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}
