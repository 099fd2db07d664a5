//! Where in a JSON text a position lies, as a path (`settings.latency.order`,
//! `journal.records[3]`): a parser's error says "line 1 column 812", which
//! names no field; this turns it into the field a person can look for. A
//! light scan that never fails: on text that is not JSON it names what it
//! has seen so far.

enum Level {
    Object { key: Option<String> },
    Array { index: usize },
}

/// The path of the value being read at byte `offset` of `text`, under
/// `root`. Keys that are plain words are joined with dots, others quoted
/// in brackets.
pub fn path_at(text: &str, offset: usize, root: &str) -> String {
    let mut stack: Vec<Level> = Vec::new();
    let mut expecting_key = false;
    let bytes = text.as_bytes();
    let end = offset.min(bytes.len());
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'{' => {
                stack.push(Level::Object { key: None });
                expecting_key = true;
            }
            b'[' => {
                stack.push(Level::Array { index: 0 });
                expecting_key = false;
            }
            b'}' | b']' => {
                stack.pop();
                expecting_key = false;
            }
            b',' => match stack.last_mut() {
                Some(Level::Object { key }) => {
                    *key = None;
                    expecting_key = true;
                }
                Some(Level::Array { index }) => *index += 1,
                None => {}
            },
            b':' => expecting_key = false,
            b'"' => {
                let start = i + 1;
                i = start;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if expecting_key {
                    if let Some(Level::Object { key }) = stack.last_mut() {
                        let raw = text.get(start..i.min(bytes.len())).unwrap_or_default();
                        *key = Some(raw.to_owned());
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = root.to_owned();
    for level in &stack {
        match level {
            Level::Object { key: Some(key) } => {
                let word =
                    !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
                if word {
                    path.push('.');
                    path.push_str(key);
                } else {
                    path.push_str(&format!("[\"{key}\"]"));
                }
            }
            Level::Object { key: None } => {}
            Level::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

/// The byte offset of a 1-based line and column, as parsers report them.
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    line_start.saturating_add(column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, marker: &str) -> String {
        path_at(text, text.find(marker).unwrap_or(0), "s")
    }

    #[test]
    fn names_nested_keys_and_indices() {
        let text = r#"{"a":{"b":[1,{"c":"X"}]},"d":2}"#;
        assert_eq!(at(text, "X"), "s.a.b[1].c");
        assert_eq!(at(text, "2}"), "s.d");
        assert_eq!(at(text, "1,"), "s.a.b[0]");
    }

    #[test]
    fn quotes_keys_that_are_not_words_and_skips_escaped_quotes() {
        let text = r#"{"live":{"ORD-1 \"x\"":{"price":"Z"}}}"#;
        assert_eq!(at(text, "Z"), r#"s.live["ORD-1 \"x\""].price"#);
    }

    #[test]
    fn never_fails_on_text_that_is_not_json() {
        for text in ["", "]]]}}", "{\"", "[\"\\", "{{{{:::,,,"] {
            let _ = path_at(text, text.len() + 5, "s");
        }
        assert_eq!(offset_of("ab\ncd", 2, 1), 4);
        assert_eq!(offset_of("ab", 1, 2), 2);
    }
}
