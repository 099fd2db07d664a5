//! The documentation as the contract tests read it: README.md and every
//! Markdown file under docs/, each with its line breaks as spaces (lines
//! are wrapped anywhere), so a claim is found wherever it was moved.

use std::path::{Path, PathBuf};

/// README.md, then docs/**/*.md in name order.
pub fn doc_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    collect(&root.join("docs"), &mut files);
    files
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
}

/// Every documentation file's text, whitespace folded, one file after
/// another with a blank between them (so no claim spans two files).
pub fn docs_text() -> String {
    doc_files()
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}
