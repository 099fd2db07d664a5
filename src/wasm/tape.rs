//! A compact form of records, spans or the OTLP export (see
//! `observe::tape`) handed to the JS layer, which builds the objects from
//! it: the numbers read in place from linear memory, the strings as one
//! JSON array.

use crate::prelude::*;

use wasm_bindgen::prelude::*;

use crate::observe::tape::Written;

/// A tape made by a read; the JS layer reads it once and frees it.
#[wasm_bindgen(js_name = RawTape)]
pub struct RawTape {
    numbers: Vec<f64>,
    strings: String,
}

#[wasm_bindgen(js_class = RawTape)]
impl RawTape {
    /// Where the numbers start in linear memory (8-aligned).
    #[wasm_bindgen(js_name = numbersAt)]
    pub fn numbers_at(&self) -> usize {
        self.numbers.as_ptr() as usize
    }

    /// How many numbers there are.
    #[wasm_bindgen(js_name = numbersLen)]
    pub fn numbers_len(&self) -> usize {
        self.numbers.len()
    }

    /// The strings the numbers point into, as a JSON array; taken once.
    pub fn strings(&mut self) -> String {
        core::mem::take(&mut self.strings)
    }
}

impl From<Written> for RawTape {
    fn from(tape: Written) -> RawTape {
        RawTape {
            numbers: tape.numbers,
            strings: tape.strings,
        }
    }
}
