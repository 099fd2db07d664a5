//! Time as OTLP writes it: Unix nanoseconds, a decimal string (int64 in
//! OTLP/JSON). Both the export (`otlp.rs`) and the tape the JS layer
//! builds it from (`tape.rs`) write times so.

use crate::prelude::*;

use crate::json::write::push_int;

/// Unix ms as OTLP's nanoseconds, a decimal string (int64 in OTLP/JSON).
pub fn nanos(t: &mut String, ms: i64) {
    t.push('"');
    push_int(t, ms);
    if ms != 0 {
        t.push_str("000000");
    }
    t.push('"');
}
