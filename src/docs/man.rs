//! The manual page, `man/zeropty.1`, in man(7) macros.

/// The whole page.
pub fn man_page() -> String {
    String::new()
}
