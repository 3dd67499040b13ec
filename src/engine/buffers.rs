//! Paste buffers: the server's store of named and automatic (`bufferN`) buffers, as tmux 3.3a
//! keeps them.
//!
//! Buffers are listed most recent first (by the order they were set, which a rename keeps).
//! Automatic buffers are the ones the server named itself; when a new one would make more
//! than `buffer-limit` of them, the oldest automatic ones go first. Named buffers are never
//! evicted. An empty buffer is never stored.
//!
//! Pure code: no clock (creation times are passed in) and no I/O.

/// tmux's default `buffer-limit`.
pub const DEFAULT_LIMIT: usize = 50;

/// How many bytes of a buffer `#{buffer_sample}` shows before it is cut with `...`.
const SAMPLE_WIDTH: usize = 200;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub name: String,
    pub data: Vec<u8>,
    /// Unix time the buffer was set.
    pub created: i64,
    /// Named by the server (`bufferN`), so subject to `buffer-limit`.
    pub automatic: bool,
    order: u64,
}

impl Buffer {
    /// `#{buffer_sample}`: the start of the data made visible (C-style and octal escapes), cut
    /// to 200 bytes with `...`.
    pub fn sample(&self) -> String {
        let len = self.data.len().min(SAMPLE_WIDTH);
        let mut out = strvis(&self.data[..len]);
        if self.data.len() > SAMPLE_WIDTH || out.len() > SAMPLE_WIDTH {
            out.truncate(SAMPLE_WIDTH);
            out.extend_from_slice(b"...");
        }
        // Only the cut can leave a partial character; tmux prints those bytes as they are,
        // a format value is text, so they become U+FFFD here.
        String::from_utf8_lossy(&out).into_owned()
    }
}

#[derive(Debug, Default)]
pub struct Buffers {
    /// Most recent first.
    list: Vec<Buffer>,
    next_index: u32,
    next_order: u64,
}

impl Buffers {
    pub fn new() -> Buffers {
        Buffers::default()
    }

    /// Every buffer, most recent first.
    pub fn iter(&self) -> impl Iterator<Item = &Buffer> {
        self.list.iter()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn get(&self, name: &str) -> Option<&Buffer> {
        if name.is_empty() {
            return None;
        }
        self.list.iter().find(|b| b.name == name)
    }

    /// The most recent buffer, named or automatic (what commands use without `-b`).
    pub fn top(&self) -> Option<&Buffer> {
        self.list.first()
    }

    fn insert(&mut self, b: Buffer) {
        // Orders only grow, so the newest always goes first.
        self.list.insert(0, b);
    }

    /// Stores `data` as a new automatic buffer named `prefix` and a number (`buffer0`, as
    /// tmux's `paste_add`), evicting the oldest automatic buffers beyond `limit`. Returns its
    /// name (`None` for empty data, which is not stored).
    pub fn add(&mut self, prefix: &str, data: Vec<u8>, now: i64, limit: usize) -> Option<String> {
        if data.is_empty() {
            return None;
        }
        let mut automatic = self.list.iter().filter(|b| b.automatic).count();
        while automatic >= limit {
            match self.list.iter().rposition(|b| b.automatic) {
                Some(i) => {
                    self.list.remove(i);
                    automatic -= 1;
                }
                None => break,
            }
        }
        let name = loop {
            let name = format!("{prefix}{}", self.next_index);
            self.next_index = self.next_index.wrapping_add(1);
            if self.get(&name).is_none() {
                break name;
            }
        };
        let order = self.next_order;
        self.next_order += 1;
        self.insert(Buffer {
            name: name.clone(),
            data,
            created: now,
            automatic: true,
            order,
        });
        Some(name)
    }

    /// Sets buffer `name` (replacing one of that name, which becomes the most recent), or adds
    /// an automatic buffer when there is no name. Empty data changes nothing.
    pub fn set(
        &mut self,
        name: Option<&str>,
        data: Vec<u8>,
        now: i64,
        limit: usize,
    ) -> Result<(), String> {
        if data.is_empty() {
            return Ok(());
        }
        let Some(name) = name else {
            self.add("buffer", data, now, limit);
            return Ok(());
        };
        if name.is_empty() {
            return Err("empty buffer name".into());
        }
        self.remove(name);
        let order = self.next_order;
        self.next_order += 1;
        self.insert(Buffer {
            name: name.to_string(),
            data,
            created: now,
            automatic: false,
            order,
        });
        Ok(())
    }

    /// Renames a buffer; it keeps its place and becomes a named buffer.
    pub fn rename(&mut self, old: &str, new: &str) -> Result<(), String> {
        if old.is_empty() {
            return Err("no buffer".into());
        }
        if new.is_empty() {
            return Err("new name is empty".into());
        }
        let Some(i) = self.list.iter().position(|b| b.name == old) else {
            return Err(format!("no buffer {old}"));
        };
        if self.get(new).is_some() {
            return Err(format!("buffer {new} already exists"));
        }
        let b = &mut self.list[i];
        b.name = new.to_string();
        b.automatic = false;
        Ok(())
    }

    /// Deletes a buffer; returns whether it existed.
    pub fn remove(&mut self, name: &str) -> bool {
        match self.list.iter().position(|b| b.name == name) {
            Some(i) => {
                self.list.remove(i);
                true
            }
            None => false,
        }
    }

    /// Heap bytes the buffers hold.
    pub fn heap_bytes(&self) -> usize {
        self.list
            .iter()
            .map(|b| b.data.capacity() + b.name.capacity())
            .sum::<usize>()
            + self.list.capacity() * std::mem::size_of::<Buffer>()
    }

    #[cfg(test)]
    fn orders(&self) -> Vec<u64> {
        self.list.iter().map(|b| b.order).collect()
    }
}

/// tmux's `utf8_strvis` with octal, C-style, tab and newline escapes (how buffer samples are
/// shown): complete printable UTF-8 characters pass; `\` is doubled; `$` before a name or `{`
/// is escaped so the sample cannot be mistaken for a variable; other bytes become `\n`-style
/// or `\ooo` escapes.
pub fn strvis(src: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        if let Some(n) = utf8_char(&src[i..]) {
            out.extend_from_slice(&src[i..i + n]);
            i += n;
            continue;
        }
        let c = src[i];
        let next = src.get(i + 1).copied();
        if c == b'$' && next.is_some() {
            if next.is_some_and(|n| n.is_ascii_alphabetic() || n == b'_' || n == b'{') {
                out.push(b'\\');
            }
            out.push(b'$');
        } else {
            vis(&mut out, c, next.unwrap_or(0));
        }
        i += 1;
    }
    out
}

/// The length of the complete multi-byte UTF-8 character at the start of `s` that tmux
/// accepts (its lead byte range, continuation bytes, and a width glibc knows).
fn utf8_char(s: &[u8]) -> Option<usize> {
    let n = match s.first()? {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let c = std::str::from_utf8(s.get(..n)?).ok()?.chars().next()?;
    crate::term::width::tmux_width(c).map(|_| n)
}

/// One byte as vis(3) shows it with VIS_OCTAL | VIS_CSTYLE | VIS_TAB | VIS_NL.
fn vis(out: &mut Vec<u8>, c: u8, next: u8) {
    if c.is_ascii_graphic() || c == b' ' {
        if c == b'\\' {
            out.push(b'\\');
        }
        out.push(c);
        return;
    }
    let cstyle = match c {
        b'\n' => Some(b'n'),
        b'\r' => Some(b'r'),
        0x08 => Some(b'b'),
        0x07 => Some(b'a'),
        0x0b => Some(b'v'),
        b'\t' => Some(b't'),
        0x0c => Some(b'f'),
        0 => Some(b'0'),
        _ => None,
    };
    if let Some(e) = cstyle {
        out.extend_from_slice(&[b'\\', e]);
        // A NUL before an octal digit must not read as part of a longer escape.
        if c == 0 && (b'0'..=b'7').contains(&next) {
            out.extend_from_slice(b"00");
        }
        return;
    }
    out.extend_from_slice(&[
        b'\\',
        b'0' + (c >> 6 & 7),
        b'0' + (c >> 3 & 7),
        b'0' + (c & 7),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn automatic_names_order_and_limit() {
        let mut b = Buffers::new();
        for i in 0..5 {
            b.add("buffer", format!("d{i}").into_bytes(), 0, 3);
        }
        let names: Vec<&str> = b.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, ["buffer4", "buffer3", "buffer2"]);
        b.set(Some("named"), b"x".to_vec(), 0, 3).unwrap();
        b.add("buffer", b"y".to_vec(), 0, 3);
        let names: Vec<&str> = b.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, ["buffer5", "named", "buffer4", "buffer3"]);
        assert!(b.orders().windows(2).all(|w| w[0] > w[1]));
        assert_eq!(b.add("buffer", Vec::new(), 0, 3), None);
    }

    #[test]
    fn set_replaces_and_moves_to_top_rename_keeps_place() {
        let mut b = Buffers::new();
        b.set(Some("a"), b"1".to_vec(), 0, 50).unwrap();
        b.set(Some("b"), b"2".to_vec(), 0, 50).unwrap();
        b.set(Some("a"), b"3".to_vec(), 0, 50).unwrap();
        assert_eq!(b.top().unwrap().name, "a");
        assert_eq!(b.len(), 2);
        b.rename("b", "c").unwrap();
        assert_eq!(b.iter().nth(1).unwrap().name, "c");
        assert_eq!(b.rename("c", "a"), Err("buffer a already exists".into()));
        assert_eq!(b.rename("zz", "q"), Err("no buffer zz".into()));
        assert_eq!(b.rename("c", ""), Err("new name is empty".into()));
        assert_eq!(
            b.set(Some(""), b"x".to_vec(), 0, 50),
            Err("empty buffer name".into())
        );
        // An automatic buffer renamed is no longer counted against the limit.
        b.add("buffer", b"x".to_vec(), 0, 1);
        b.rename("buffer0", "kept").unwrap();
        b.add("buffer", b"y".to_vec(), 0, 1);
        assert!(b.get("kept").is_some());
    }

    #[test]
    fn samples_escape_as_tmux_does() {
        let s = |d: &[u8]| {
            Buffer {
                name: String::new(),
                data: d.to_vec(),
                created: 0,
                automatic: true,
                order: 0,
            }
            .sample()
        };
        assert_eq!(s(b"a$b\\c\td\ne"), "a\\$b\\\\c\\td\\ne");
        assert_eq!(
            s(b"\x1b[1m\x7f\x00\x01\x003"),
            "\\033[1m\\177\\0\\001\\0003"
        );
        assert_eq!(s("é中 $1 ${x} $".as_bytes()), "é中 $1 \\${x} $");
        assert_eq!(s(b"\xc3(\xff"), "\\303(\\377");
        assert_eq!(s(&[b'x'; 201]), format!("{}...", "x".repeat(200)));
        assert_eq!(s(&[1u8; 60]), format!("{}...", "\\001".repeat(50)));
    }
}
