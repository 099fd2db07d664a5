//! The heap of the package's module, which has no std to bring one:
//! dlmalloc, the allocator std uses on `wasm32` (the same crate), so
//! memory per order and growth stay as they were with std.

#[global_allocator]
static HEAP: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;
