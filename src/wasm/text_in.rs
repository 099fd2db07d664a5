//! A long text (a snapshot) written into linear memory by the JS layer
//! with `TextEncoder.encodeInto`, one native copy, rather than passed as a
//! string: wasm-bindgen copies a string one UTF-16 unit at a time while it
//! is ASCII, which for a 60 MB snapshot costs more than reading it.

use crate::prelude::*;

use wasm_bindgen::prelude::*;

/// Bytes the JS layer fills: `room` says where, `close` how many.
#[wasm_bindgen(js_name = RawText)]
pub struct RawText {
    bytes: Vec<u8>,
}

#[wasm_bindgen(js_class = RawText)]
impl RawText {
    #[wasm_bindgen(constructor)]
    pub fn new() -> RawText {
        RawText { bytes: Vec::new() }
    }

    /// The address of `room` writable bytes after the first `kept`
    /// (those written so far); the memory may have grown.
    pub fn room(&mut self, kept: usize, room: usize) -> usize {
        let kept = kept.min(self.bytes.len());
        if kept == 0 {
            // Fresh zeroed memory, not a 60 MB fill: the allocator knows
            // memory new from the host is zeros already.
            self.bytes = vec![0; room];
        } else {
            self.bytes.truncate(kept);
            self.bytes.resize(kept.saturating_add(room), 0);
        }
        self.bytes.as_mut_ptr() as usize + kept
    }

    /// The first `len` bytes are the text.
    pub fn close(&mut self, len: usize) {
        self.bytes.truncate(len);
    }
}

impl Default for RawText {
    fn default() -> Self {
        RawText::new()
    }
}

impl RawText {
    /// The text; TextEncoder writes only UTF-8, so `None` never comes from
    /// the JS layer.
    pub(super) fn into_text(self) -> Option<String> {
        String::from_utf8(self.bytes).ok()
    }
}
