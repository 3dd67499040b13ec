//! POSIX extended regular expressions from the C library, as tmux 3.3a's copy mode compiles
//! its search patterns (`regcomp` with `REG_EXTENDED`, `REG_ICASE` for patterns without
//! capitals): the same library gives the same matches.
//!
//! Invariant: a [`PosixRegex`] holds a compiled `regex_t` from its creation until it is
//! dropped, and frees it exactly once.

use crate::engine::copy_mode::Regex;
use std::ffi::CString;

/// A compiled pattern.
pub struct PosixRegex {
    compiled: Box<libc::regex_t>,
}

/// Compiles `pattern`, ignoring case with `ignore_case`; `None` when the library refuses it
/// (or it holds a NUL byte).
pub fn compile(pattern: &str, ignore_case: bool) -> Option<Box<dyn Regex>> {
    let pattern = CString::new(pattern).ok()?;
    let flags = libc::REG_EXTENDED | if ignore_case { libc::REG_ICASE } else { 0 };
    // SAFETY: regex_t is plain data that regcomp fills in; zeroed is a valid starting value.
    let mut compiled: Box<libc::regex_t> = Box::new(unsafe { std::mem::zeroed() });
    // SAFETY: both pointers are valid for the call; the pattern is NUL-terminated.
    let failed = unsafe { libc::regcomp(&mut *compiled, pattern.as_ptr(), flags) };
    (failed == 0).then(|| Box::new(PosixRegex { compiled }) as Box<dyn Regex>)
}

impl Regex for PosixRegex {
    fn find(&self, text: &str, not_bol: bool) -> Option<(usize, usize)> {
        let text = CString::new(text).ok()?;
        // SAFETY: regmatch_t is plain data that regexec fills in.
        let mut found: libc::regmatch_t = unsafe { std::mem::zeroed() };
        let flags = if not_bol { libc::REG_NOTBOL } else { 0 };
        // SAFETY: the regex was compiled and not freed; text is NUL-terminated; one match slot.
        let failed = unsafe { libc::regexec(&*self.compiled, text.as_ptr(), 1, &mut found, flags) };
        let (start, end) = (
            usize::try_from(found.rm_so).ok()?,
            usize::try_from(found.rm_eo).ok()?,
        );
        (failed == 0).then_some((start, end))
    }
}

impl Drop for PosixRegex {
    fn drop(&mut self) {
        // SAFETY: compiled by regcomp in `compile`, freed only here.
        unsafe { libc::regfree(&mut *self.compiled) };
    }
}

#[cfg(test)]
mod tests {
    use super::compile;

    #[test]
    fn patterns_match_as_the_c_library_matches_them() {
        let r = compile("l(i|o)ne?", false).expect("compiles");
        assert_eq!(r.find("the lone line", false), Some((4, 8)));
        assert_eq!(r.find("LINE", false), None);
        let anchored = compile("^ab", true).expect("compiles");
        assert_eq!(anchored.find("AB ab", false), Some((0, 2)));
        assert_eq!(
            anchored.find("AB ab", true),
            None,
            "not at the start of a line"
        );
        assert!(compile("a(b", false).is_none());
    }
}
