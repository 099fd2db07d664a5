//! What a panic does in the package's module: it traps, at once. A panic
//! is a bug (no input reaches one), and a trapped module is unusable
//! anyway, so nothing reads the `PanicInfo`: its message, its location
//! and core's formatting stay out of the module. The JS layer turns the
//! trap (a `WebAssembly.RuntimeError`) into a 500 envelope naming it, or
//! lets it throw where the method documents a throw; it is never silent.

#[panic_handler]
fn abort(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}
