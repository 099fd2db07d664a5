//! The heap of the package's module, which has no std to bring one:
//! talc, an allocator made for WebAssembly that takes memory from
//! `memory.grow` as it needs it. It coalesces freed neighbours as
//! dlmalloc (std's allocator on `wasm32`) does, so memory stays bounded
//! the same way (27.0 MiB after a million requests of the typical flow,
//! against dlmalloc's 26.9), at the same speed side by side
//! (`tests/bench/builds-compare.mjs`), in about 4 KB less of the module.

#[global_allocator]
static HEAP: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
