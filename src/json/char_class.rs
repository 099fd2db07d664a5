//! The two facts about a character that messages need beyond ASCII:
//! whether `{:?}` writes it as `\u{…}`, and whether it is a letter or a
//! digit (`char::is_alphanumeric`). core answers both from its Unicode
//! tables (printable, grapheme extend, alphabetic, numeric), which
//! together weigh about 7 KB of the WebAssembly module; the two answers
//! here come from one run-length table of 2.8 KB (`char_table.rs`),
//! generated from core's answers and held to them for every character by
//! the tests below.
//!
//! The table lists, block of 4,096 characters by block, runs of
//! characters of the same class: one byte per run (two when the run is
//! longer than 32 characters), its length less one shifted left by two,
//! its class in the low two bits (`ESCAPED`, `ALPHANUMERIC`). A
//! lookup reads only its own block's runs. Past the last block every
//! character is escaped and none is a letter.

use super::char_table::{BLOCKS, RUNS};

/// The class bit of characters that `{:?}` writes as `\u{…}`: those core
/// finds not printable, or grapheme extending.
const ESCAPED: u8 = 1;
/// The class bit of letters and digits, as `char::is_alphanumeric`.
const ALPHANUMERIC: u8 = 2;

/// How many characters a block of the table holds, as a shift.
pub(super) const BLOCK_BITS: u32 = 12;

/// The class bits of `c` (never ASCII: callers answer ASCII themselves).
fn class(c: char) -> u8 {
    let code = c as u32;
    let Some(&start) = BLOCKS.get((code >> BLOCK_BITS) as usize) else {
        return ESCAPED;
    };
    let mut at = usize::from(start);
    // The first character after the run read last.
    let mut end = code >> BLOCK_BITS << BLOCK_BITS;
    while let Some(&first) = RUNS.get(at) {
        let mut run = u32::from(first & 0x7f);
        at += 1;
        if first & 0x80 != 0 {
            run |= u32::from(RUNS.get(at).copied().unwrap_or(0)) << 7;
            at += 1;
        }
        end += (run >> 2) + 1;
        if code < end {
            return (run & 3) as u8;
        }
    }
    ESCAPED
}

/// Whether `{:?}` writes `c` as `\u{…}` (the characters it escapes with a
/// backslash and a letter, `\n`, `\"` and the like, are not among them).
pub fn escaped_as_code(c: char) -> bool {
    if c.is_ascii() {
        return (c < ' ' && !matches!(c, '\0' | '\t' | '\n' | '\r')) || c == '\u{7f}';
    }
    class(c) & ESCAPED != 0
}

/// Whether `c` is a letter or a digit, as `char::is_alphanumeric` says.
pub fn alphanumeric(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    class(c) & ALPHANUMERIC != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classes core gives `c`.
    fn core_class(c: char) -> u8 {
        let code = c.escape_debug().nth(1) == Some('u');
        (u8::from(code) * ESCAPED) | (u8::from(c.is_alphanumeric()) * ALPHANUMERIC)
    }

    /// The table as core's answers make it: the block index and the runs.
    fn table_from_core() -> (Vec<u16>, Vec<u8>) {
        let block = 1u32 << BLOCK_BITS;
        let class_at = |code: u32| char::from_u32(code).map(core_class);
        // Blocks up to the last one holding a character not simply escaped.
        let last = (0..=char::MAX as u32)
            .rev()
            .find(|&code| class_at(code).is_some_and(|class| class != ESCAPED))
            .unwrap_or(0);
        let mut blocks = Vec::new();
        let mut runs = Vec::new();
        let push = |runs: &mut Vec<u8>, len: u32, class: u8| {
            let run = (len - 1) << 2 | u32::from(class);
            if run < 0x80 {
                runs.push(run as u8);
            } else {
                runs.push((run & 0x7f) as u8 | 0x80);
                runs.push((run >> 7) as u8);
            }
        };
        // A surrogate (no character) takes the class of the one before.
        let mut previous = ESCAPED;
        for start in (0..=last >> BLOCK_BITS).map(|b| b * block) {
            blocks.push(u16::try_from(runs.len()).expect("the runs fit 16 bits"));
            let mut len = 0;
            let mut current = class_at(start).unwrap_or(previous);
            for code in start..start + block {
                let class = class_at(code).unwrap_or(previous);
                previous = class;
                if class != current {
                    push(&mut runs, len, current);
                    current = class;
                    len = 0;
                }
                len += 1;
            }
            push(&mut runs, len, current);
        }
        (blocks, runs)
    }

    #[test]
    fn every_character_is_classed_as_core_classes_it() {
        for c in (0..=char::MAX as u32).filter_map(char::from_u32) {
            let code = c.escape_debug().nth(1) == Some('u');
            assert_eq!(escaped_as_code(c), code, "{:#x} escaped", c as u32);
            assert_eq!(
                alphanumeric(c),
                c.is_alphanumeric(),
                "{:#x} alphanumeric",
                c as u32
            );
        }
    }

    /// Fails when the toolchain's Unicode tables change: then write the
    /// table again (`cargo test --lib write_char_table -- --ignored`,
    /// then `cargo fmt`).
    #[test]
    fn the_table_is_the_one_core_gives() {
        let (blocks, runs) = table_from_core();
        assert!(
            blocks == BLOCKS && runs == RUNS,
            "src/json/char_table.rs is out of date: cargo test --lib write_char_table -- --ignored"
        );
    }

    #[test]
    fn the_characters_past_the_table_are_escaped_and_not_letters() {
        let past = (BLOCKS.len() as u32) << BLOCK_BITS;
        for c in [
            past,
            0xe_0001,
            0xe_0100,
            0xf_0000,
            0x10_fffd,
            char::MAX as u32,
        ] {
            let c = char::from_u32(c).unwrap();
            assert!(escaped_as_code(c) && !alphanumeric(c), "{:#x}", c as u32);
        }
    }

    #[test]
    #[ignore = "writes src/json/char_table.rs from core's tables"]
    fn write_char_table() {
        let (blocks, runs) = table_from_core();
        let list = |items: Vec<String>| items.join(", ");
        let text = format!(
            "//! Generated by `cargo test --lib write_char_table -- --ignored` from the\n\
             //! toolchain's Unicode tables (see [`super::char_class`]); not edited by hand.\n\n\
             /// Where each block's runs start in [`RUNS`].\n\
             pub(super) static BLOCKS: [u16; {}] = [{}];\n\n\
             /// The runs of each block: length less one, shifted left by two, and\n\
             /// the class bits; seven bits a byte, the high bit set when a second follows.\n\
             pub(super) static RUNS: [u8; {}] = [{}];\n",
            blocks.len(),
            list(blocks.iter().map(u16::to_string).collect()),
            runs.len(),
            list(runs.iter().map(u8::to_string).collect()),
        );
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/json/char_table.rs");
        std::fs::write(path, text).unwrap();
    }
}
