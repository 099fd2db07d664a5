//! The crate's layers, held: every file of `src/` imports only from its own
//! layer and the layers below it, and no files import each other in a
//! circle. The order is `LAYERS`; docs/architecture.md says why.
//!
//! The imports are read from the source text: every `use` (each path of
//! its tree), and every path in code that starts with `crate::`,
//! `$crate::`, `super::`, `self::`, a child module or a name a `use`
//! brought in. Comments, string and character literals are left out, and
//! so are items under `#[cfg(test)]`: a file's unit tests stand above
//! every layer, as the tests of `tests/` do. A name is followed through
//! the `use` items that hand it on (`observe/mod.rs`'s `pub use`, say) to
//! the file that defines it, so a circle is one of files, not of folders.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::path::Path;

/// The layers, bottom to top. A file's layer is its folder under `src/`;
/// `src/prelude.rs` (what std's prelude gives, for the no_std build) is
/// below all, and `src/lib.rs`, the crate's root, above all.
const LAYERS: [&str; 9] = [
    "prelude", "json", "sim", "domain", "observe", "gateway", "service", "wasm", "lib",
];

/// The index of a file's layer in `LAYERS`, from its path under `src/`.
fn layer_of(file: &str) -> Option<usize> {
    let inside = file.strip_prefix("src/")?;
    let first = inside.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    LAYERS.iter().position(|l| *l == name)
}

/// One path a file names: its line, its segments as written, and how
/// deep in inline `mod … { }` blocks it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Named {
    line: usize,
    path: Vec<String>,
    depth: usize,
    /// The name a `use` brings into scope (its last segment or its `as`);
    /// `None` for a path in code and for a glob.
    alias: Option<String>,
}

/// The paths a file names, in `use` items and in its code.
struct Read {
    uses: Vec<Named>,
    in_code: Vec<Named>,
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The text with comments and string and character literals replaced by
/// spaces, newlines kept, so offsets and line numbers stay those of the
/// file.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        let end = literal_or_comment_end(&chars, i);
        if end > i {
            blank(&mut out[i..end]);
            i = end;
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// Spaces over a stretch of text, its line breaks kept, so that line
/// numbers still point at the source.
fn blank(stretch: &mut [char]) {
    for c in stretch {
        if *c != '\n' {
            *c = ' ';
        }
    }
}

/// Where the comment or literal starting at `i` ends, or `i` when none
/// starts there (a lifetime's quote is none).
fn literal_or_comment_end(c: &[char], i: usize) -> usize {
    let at = |k: usize| c.get(k).copied().unwrap_or('\0');
    match (at(i), at(i + 1)) {
        ('/', '/') => (i..c.len()).find(|&k| c[k] == '\n').unwrap_or(c.len()),
        ('/', '*') => block_comment_end(c, i),
        ('"', _) => string_end(c, i + 1),
        ('r', '"' | '#') if i == 0 || !is_ident(at(i - 1)) || at(i - 1) == 'b' => {
            raw_string_end(c, i + 1).unwrap_or(i)
        }
        // An escape is at least one character after the backslash.
        ('\'', '\\') => (i + 3..c.len())
            .find(|&k| c[k] == '\'')
            .map_or(i, |k| k + 1),
        ('\'', _) if at(i + 2) == '\'' => i + 3,
        _ => i,
    }
}

/// The end of a block comment opened at `i`; they nest.
fn block_comment_end(c: &[char], i: usize) -> usize {
    let (mut k, mut depth) = (i, 0);
    while k + 1 < c.len() {
        match (c[k], c[k + 1]) {
            ('/', '*') => (depth, k) = (depth + 1, k + 2),
            ('*', '/') => {
                (depth, k) = (depth - 1, k + 2);
                if depth == 0 {
                    return k;
                }
            }
            _ => k += 1,
        }
    }
    c.len()
}

/// The end of a string whose text starts at `from`, past its closing quote.
fn string_end(c: &[char], mut from: usize) -> usize {
    while from < c.len() {
        match c[from] {
            '\\' => from += 2,
            '"' => return from + 1,
            _ => from += 1,
        }
    }
    c.len()
}

/// The end of a raw string whose `#`s or quote start at `from`.
fn raw_string_end(c: &[char], from: usize) -> Option<usize> {
    let hashes = c[from..].iter().take_while(|&&h| h == '#').count();
    if c.get(from + hashes) != Some(&'"') {
        return None;
    }
    let closing: Vec<char> = std::iter::once('"')
        .chain(std::iter::repeat_n('#', hashes))
        .collect();
    let body = from + hashes + 1;
    let end = (body..c.len()).find(|&k| c[k..].starts_with(&closing))?;
    Some(end + closing.len())
}

/// The code with each item under `#[cfg(test)]` blanked: up to its `;`,
/// or through its block.
fn without_test_items(code: &str) -> String {
    let mut out: Vec<char> = code.chars().collect();
    let attr: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + attr.len() <= out.len() {
        if out[i..].starts_with(&attr) {
            let end = item_end(&out, i + attr.len());
            blank(&mut out[i..end]);
            i = end;
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// The end of the item that starts at `from`: past its first `;` outside
/// brackets, or past the block its first `{` opens.
fn item_end(c: &[char], from: usize) -> usize {
    let mut round_or_square = 0i32;
    let mut k = from;
    while k < c.len() {
        match c[k] {
            '(' | '[' => round_or_square += 1,
            ')' | ']' => round_or_square -= 1,
            ';' if round_or_square == 0 => return k + 1,
            '{' => return matching_brace(c, k),
            _ => {}
        }
        k += 1;
    }
    c.len()
}

/// Past the `}` that closes the `{` at `open`.
fn matching_brace(c: &[char], open: usize) -> usize {
    let mut depth = 0;
    for (k, &ch) in c.iter().enumerate().skip(open) {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    c.len()
}

/// The words and punctuation of code, with their char offsets: idents,
/// `::`, and single characters; whitespace dropped.
fn tokens(code: &[char]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let c = code[i];
        if is_ident(c) {
            let end = (i..code.len())
                .find(|&k| !is_ident(code[k]))
                .unwrap_or(code.len());
            out.push((i, code[i..end].iter().collect()));
            i = end;
        } else if c == ':' && code.get(i + 1) == Some(&':') {
            out.push((i, "::".to_owned()));
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push((i, c.to_string()));
            }
            i += 1;
        }
    }
    out
}

/// The char ranges of inline `mod name { … }` blocks.
fn inline_modules(code: &[char], toks: &[(usize, String)]) -> Vec<(usize, usize)> {
    toks.windows(3)
        .filter(|w| w[0].1 == "mod" && w[2].1 == "{" && is_ident_token(&w[1].1))
        .map(|w| (w[2].0, matching_brace(code, w[2].0)))
        .collect()
}

fn is_ident_token(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| is_ident(c) && !c.is_ascii_digit())
}

/// Reads a file's text: its `use` trees and the paths in its code.
fn read(text: &str) -> Read {
    let code: Vec<char> = without_test_items(&code_only(text)).chars().collect();
    let toks = tokens(&code);
    let blocks = inline_modules(&code, &toks);
    let mut lines = vec![1];
    for c in &code {
        lines.push(lines.last().copied().unwrap_or(1) + usize::from(*c == '\n'));
    }
    let named = |at: usize, path: Vec<String>, alias: Option<String>| Named {
        line: lines[at],
        path,
        depth: blocks.iter().filter(|(s, e)| *s < at && at < *e).count(),
        alias,
    };
    let (mut uses, mut in_code) = (Vec::new(), Vec::new());
    let mut i = 0;
    while let Some((at, word)) = toks.get(i) {
        let starts_path = i == 0 || toks[i - 1].1 != "::";
        if word == "use" {
            let end = (i..toks.len())
                .find(|&k| toks[k].1 == ";")
                .unwrap_or(toks.len());
            let mut trees = Vec::new();
            use_tree(&toks[i + 1..end], &[], &mut trees);
            uses.extend(
                trees
                    .into_iter()
                    .map(|(path, alias)| named(*at, path, alias)),
            );
            i = end;
        } else if starts_path && is_ident_token(word) {
            let mut path = vec![word.clone()];
            let mut k = i + 1;
            while let (Some("::"), Some(next)) =
                (toks.get(k).map(|t| t.1.as_str()), toks.get(k + 1))
            {
                if !is_ident_token(&next.1) {
                    break;
                }
                path.push(next.1.clone());
                k += 2;
            }
            if path.len() > 1 {
                in_code.push(named(*at, path, None));
            }
            i = k;
        } else {
            i += 1;
        }
    }
    Read { uses, in_code }
}

/// The paths of a `use` tree (without `use` and `;`), each with the name
/// it brings in: `a::{self, b::{C as D}, e::*}` gives `a` (a), `a::b::C`
/// (D) and `a::e` (none, a glob).
fn use_tree(
    toks: &[(usize, String)],
    prefix: &[String],
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < toks.len() {
        match toks[i].1.as_str() {
            "::" | "$" => {}
            "{" => {
                let close = group_end(toks, i);
                for part in split_top(&toks[i + 1..close - 1]) {
                    use_tree(part, &path, out);
                }
                return;
            }
            "*" => {
                out.push((path, None));
                return;
            }
            "as" => {
                let alias = toks.get(i + 1).map(|t| t.1.clone()).filter(|a| a != "_");
                out.push((path, alias));
                return;
            }
            // `a::{self}` is `a` itself.
            "self" if !path.is_empty() => {}
            word => path.push(word.to_owned()),
        }
        i += 1;
    }
    let alias = path
        .last()
        .filter(|l| !matches!(l.as_str(), "crate" | "super" | "self"))
        .cloned();
    out.push((path, alias));
}

/// Past the `}` that closes the `{` at token `open`.
fn group_end(toks: &[(usize, String)], open: usize) -> usize {
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.1.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The comma-separated parts of a group's inside, nested groups whole.
fn split_top(toks: &[(usize, String)]) -> Vec<&[(usize, String)]> {
    let (mut parts, mut start, mut depth) = (Vec::new(), 0, 0);
    for (k, t) in toks.iter().enumerate() {
        match t.1.as_str() {
            "{" => depth += 1,
            "}" => depth -= 1,
            "," if depth == 0 => {
                parts.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// A file of the tree: its path, module path and what was read.
struct File {
    path: String,
    module: Vec<String>,
    read: Read,
    /// Names its top-level `use` items bring in, as absolute paths.
    aliases: BTreeMap<String, Vec<String>>,
}

/// The module path of a file under `src/`: `src/lib.rs` is the root,
/// `src/a/mod.rs` and `src/a.rs` are `a`.
fn module_of(path: &str) -> Vec<String> {
    let inside = path.trim_start_matches("src/").trim_end_matches(".rs");
    let mut parts: Vec<String> = inside.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// One import: from a file, at a line, of a path, found in a file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Import {
    from: String,
    line: usize,
    written: String,
    to: String,
    /// The path names a module of files (a folder) as a whole: its names
    /// are imported where they are used, so this is no edge of a circle.
    folder: bool,
}

impl fmt::Display for Import {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{}:{}: {} (in {})",
            self.from, self.line, self.written, self.to
        )
    }
}

/// The tree of files, read.
struct Tree {
    files: Vec<File>,
    by_module: BTreeMap<Vec<String>, usize>,
}

impl Tree {
    fn new(sources: &[(String, String)]) -> Tree {
        let mut files: Vec<File> = sources
            .iter()
            .map(|(path, text)| File {
                path: path.clone(),
                module: module_of(path),
                read: read(text),
                aliases: BTreeMap::new(),
            })
            .collect();
        let by_module = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.module.clone(), i))
            .collect();
        let mut tree = Tree {
            files: Vec::new(),
            by_module,
        };
        for file in &mut files {
            let aliases = file
                .read
                .uses
                .iter()
                .filter(|u| u.depth == 0)
                .filter_map(|u| Some((u.alias.clone()?, tree.absolute(file, u, false)?)))
                .collect();
            file.aliases = aliases;
        }
        tree.files = files;
        tree
    }

    /// A path as written in `file`, from the crate's root; `None` for a
    /// path outside the crate or inside the file itself.
    fn absolute(&self, file: &File, named: &Named, with_aliases: bool) -> Option<Vec<String>> {
        let path = &named.path;
        let first = path.first()?.as_str();
        let mut module = file.module.clone();
        let rest: &[String] = match first {
            "crate" => {
                module.clear();
                &path[1..]
            }
            "super" => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                let ups = ups.checked_sub(named.depth).filter(|&u| u > 0)?;
                module.truncate(module.len().checked_sub(ups)?);
                &path[ups + named.depth..]
            }
            "self" if named.depth == 0 => &path[1..],
            _ if named.depth > 0 => return None,
            _ if self
                .by_module
                .contains_key(&[&module[..], &path[..1]].concat()) =>
            {
                path
            }
            _ if with_aliases => {
                let mut whole = file.aliases.get(first)?.clone();
                whole.extend_from_slice(&path[1..]);
                return Some(whole);
            }
            _ => return None,
        };
        module.extend_from_slice(rest);
        Some(module)
    }

    /// The file a path from the root leads to, following the `use` items
    /// that hand a name on; and whether it named a folder's module whole.
    fn resolve(&self, path: &[String], hops: usize) -> Option<(usize, bool)> {
        let mut module: Vec<String> = Vec::new();
        for (i, seg) in path.iter().enumerate() {
            let mut deeper = module.clone();
            deeper.push(seg.clone());
            if self.by_module.contains_key(&deeper) {
                module = deeper;
                continue;
            }
            let at = *self.by_module.get(&module)?;
            return match self.files[at].aliases.get(seg) {
                Some(target) if hops < 16 && target.as_slice() != &path[..=i] => {
                    let mut whole = target.clone();
                    whole.extend_from_slice(&path[i + 1..]);
                    self.resolve(&whole, hops + 1)
                }
                _ => Some((at, false)),
            };
        }
        let at = *self.by_module.get(&module)?;
        let folder =
            self.files[at].path.ends_with("/mod.rs") || self.files[at].path.ends_with("lib.rs");
        Some((at, folder))
    }

    /// Every import of every file of another file.
    fn imports(&self) -> Vec<Import> {
        let mut out = BTreeSet::new();
        for (i, file) in self.files.iter().enumerate() {
            let read = &file.read;
            for named in read.uses.iter().chain(&read.in_code) {
                let Some(path) = self.absolute(file, named, true) else {
                    continue;
                };
                let Some((to, folder)) = self.resolve(&path, 0) else {
                    continue;
                };
                if to != i {
                    out.insert(Import {
                        from: file.path.clone(),
                        line: named.line,
                        written: named.path.join("::"),
                        to: self.files[to].path.clone(),
                        folder,
                    });
                }
            }
        }
        out.into_iter().collect()
    }
}

/// The imports that reach a higher layer, or a file in no layer.
fn upward(imports: &[Import]) -> Vec<String> {
    imports
        .iter()
        .filter_map(|i| match (layer_of(&i.from), layer_of(&i.to)) {
            (Some(from), Some(to)) if to <= from => None,
            (Some(from), Some(to)) => Some(format!(
                "{i}: {} imports from {}, a higher layer",
                LAYERS[from], LAYERS[to]
            )),
            _ => Some(format!("{i}: a file in no layer of LAYERS")),
        })
        .collect()
}

/// Who imports whom, with the paths that tie each pair.
type Edges<'a> = BTreeMap<&'a str, BTreeMap<&'a str, Vec<&'a str>>>;

/// Each file `from` reaches, with the file it was first reached from
/// (breadth first, so the way back is a shortest one).
fn reach<'a>(edges: &Edges<'a>, from: &'a str) -> BTreeMap<&'a str, &'a str> {
    let mut came_from = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        for &next in edges.get(at).into_iter().flat_map(BTreeMap::keys) {
            if !came_from.contains_key(next) {
                came_from.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    came_from
}

/// The circles among files: for each group of files that reach each
/// other, one shortest circle through its first file, with the paths that
/// tie each step.
fn circles(imports: &[Import]) -> Vec<String> {
    let mut edges: Edges = BTreeMap::new();
    for i in imports.iter().filter(|i| !i.folder) {
        let names = edges.entry(&i.from).or_default().entry(&i.to).or_default();
        names.push(&i.written);
    }
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut found = Vec::new();
    for &start in edges.keys() {
        let came_from = reach(&edges, start);
        if seen.contains(start) || !came_from.contains_key(start) {
            continue;
        }
        // The way back to `start`, walked backwards.
        let mut way = vec![start];
        let mut at = came_from[start];
        while at != start {
            way.push(at);
            at = came_from[at];
        }
        way.push(start);
        way.reverse();
        let steps: Vec<String> = way
            .windows(2)
            .map(|w| format!("{} -> {} ({})", w[0], w[1], edges[w[0]][w[1]].join(", ")))
            .collect();
        // The whole group: every file that `start` reaches and that
        // reaches `start` back.
        let group: Vec<&str> = came_from
            .keys()
            .copied()
            .filter(|f| reach(&edges, f).contains_key(start))
            .collect();
        let mut circle = steps.join("; ");
        if group.len() + 1 > way.len() {
            circle += &format!(" (these reach each other: {})", group.join(", "));
        }
        seen.extend(group);
        found.push(circle);
    }
    found
}

/// Every `.rs` file under `src/`, with its text, paths from the crate.
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("src/ is readable")
            .flatten()
            .collect();
        entries.sort_by_key(|e| e.path());
        for entry in entries {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let name = path
                    .strip_prefix(root)
                    .expect("under the crate")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((
                    name,
                    std::fs::read_to_string(&path).expect("a source file is text"),
                ));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    walk(&root.join("src"), root, &mut out);
    out
}

#[test]
fn imports_run_downward_only() {
    let imports = Tree::new(&sources()).imports();
    let wrong = upward(&imports);
    assert!(
        wrong.is_empty(),
        "layers, bottom to top: {}\n{}",
        LAYERS.join(", "),
        wrong.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let found = circles(&Tree::new(&sources()).imports());
    assert!(found.is_empty(), "circles:\n{}", found.join("\n"));
}

/// The scan of `src/` finds the imports a reader sees, so the two tests
/// above cannot pass by reading nothing.
#[test]
fn the_scan_of_src_finds_known_imports() {
    let files = sources();
    assert!(
        files.iter().all(|(path, _)| layer_of(path).is_some()),
        "a file in no layer"
    );
    let imports = Tree::new(&files).imports();
    assert!(imports.len() > 300, "only {} imports found", imports.len());
    let has = |from: &str, to: &str| imports.iter().any(|i| i.from == from && i.to == to);
    // Straight, through a `pub use` of a mod.rs, and through lib.rs's.
    assert!(has("src/gateway/exchange/mod.rs", "src/gateway/route.rs"));
    assert!(has(
        "src/gateway/exchange/dispatch.rs",
        "src/gateway/exchange/work.rs"
    ));
    assert!(has("src/service/instance.rs", "src/observe/journal.rs"));
    assert!(has("src/wasm/bench.rs", "src/service/instance.rs"));
}

/// A file whose comments, strings and test module name higher layers.
const SAMPLE: &str = r##"
//! Says `use crate::service::Service;` in a comment.
use crate::prelude::*;
use super::{self, tape::{Tape, Written as W}, otlp};
pub use crate::json::{read::Reader, write::*};
fn f<'a>(x: &'a str) -> char {
    let _ = "crate::gateway::route::uri_group";
    let _ = r#"use crate::wasm::Service;"#;
    /* crate::service /* nested */ crate::wasm */
    crate::sim::random::Rng::new(7);
    otlp::nanos(x, 1);
    '{'
}
#[cfg(test)]
mod tests {
    use crate::service::Service;
    fn g() { crate::gateway::route::uri_group("{"); }
}
mod inner {
    use super::Thing;
}
"##;

#[test]
fn the_reader_sees_paths_not_comments_literals_or_tests() {
    let read = read(SAMPLE);
    let uses: Vec<(String, Option<String>, usize)> = read
        .uses
        .iter()
        .map(|n| (n.path.join("::"), n.alias.clone(), n.depth))
        .collect();
    let own = |p: &str, a: Option<&str>, d| (p.to_owned(), a.map(str::to_owned), d);
    assert_eq!(
        uses,
        [
            own("crate::prelude", None, 0),
            own("super", None, 0),
            own("super::tape::Tape", Some("Tape"), 0),
            own("super::tape::Written", Some("W"), 0),
            own("super::otlp", Some("otlp"), 0),
            own("crate::json::read::Reader", Some("Reader"), 0),
            own("crate::json::write", None, 0),
            own("super::Thing", Some("Thing"), 1),
        ]
    );
    let in_code: Vec<String> = read.in_code.iter().map(|n| n.path.join("::")).collect();
    assert_eq!(in_code, ["crate::sim::random::Rng::new", "otlp::nanos"]);
}

/// A small tree with one import upward and one circle: both are caught,
/// and named.
#[test]
fn an_upward_import_and_a_circle_are_caught() {
    let file = |path: &str, text: &str| (path.to_owned(), text.to_owned());
    let tree = Tree::new(&[
        file("src/lib.rs", "pub mod json; pub mod sim;"),
        file("src/json/mod.rs", "pub mod a; pub use a::A;"),
        file(
            "src/json/a.rs",
            "pub struct A;\nfn f() { crate::sim::d::D; }",
        ),
        file("src/sim/mod.rs", "pub mod b; pub mod c; pub mod d;"),
        file("src/sim/b.rs", "use super::c::C; use crate::json::A;"),
        file("src/sim/c.rs", "fn f() { super::b::go() }"),
        file("src/sim/d.rs", "pub struct D;"),
    ]);
    let imports = tree.imports();
    let up = "src/json/a.rs:2: crate::sim::d::D (in src/sim/d.rs): \
              json imports from sim, a higher layer";
    assert_eq!(upward(&imports), [up]);
    let circle = "src/sim/b.rs -> src/sim/c.rs (super::c::C); \
                  src/sim/c.rs -> src/sim/b.rs (super::b::go)";
    assert_eq!(circles(&imports), [circle]);
}
