//! The OpenAPI document ships in the package's JS layer
//! (`src/js/openapi.js`), so the WebAssembly module does not carry it; the
//! core renders it from its route table (`src/gateway/openapi.rs`). This
//! fails when the two differ. To write the JS module again:
//! `ORDERPAY_WRITE_OPENAPI=1 cargo test --test openapi_js`.

use std::path::Path;

fn module_text() -> String {
    let document = orderpay::gateway::openapi::document();
    // A template literal, so the text reads as the document does.
    let literal = document
        .replace('\\', "\\\\")
        .replace('`', "\\`")
        .replace("${", "\\${");
    format!(
        "// The OpenAPI 3.1 document of the eight endpoints and the challenge page, as\n\
         // the core renders it from its route table (src/gateway/openapi.rs). It ships\n\
         // here, in the JS layer, so the WebAssembly module does not carry it;\n\
         // tests/openapi_js.rs checks the two are the same. Written by\n\
         // `ORDERPAY_WRITE_OPENAPI=1 cargo test --test openapi_js`: do not edit.\n\
         const DOCUMENT = `{literal}`;\n\
         \n\
         /** The OpenAPI 3.1 document of the eight endpoints and the challenge page, as JSON text. */\n\
         export function openapi() {{\n  return DOCUMENT;\n}}\n"
    )
}

#[test]
fn the_js_layer_ships_the_document_the_core_renders() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/js/openapi.js");
    let expected = module_text();
    if std::env::var_os("ORDERPAY_WRITE_OPENAPI").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let shipped = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        shipped == expected,
        "src/js/openapi.js differs from the core's document: run \
         ORDERPAY_WRITE_OPENAPI=1 cargo test --test openapi_js"
    );
}
