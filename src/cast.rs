//! Reading asciinema v2 recordings (`.cast`): a JSON header line, then one
//! `[seconds, "o", data]` event per line. Used by the examples, benchmarks and reference tests
//! that replay real programs' output; pure, like the screen it feeds.

/// An output recording: the terminal size it was made at and its output chunks, in order.
#[derive(Clone, Debug, Default)]
pub struct Cast {
    pub width: u32,
    pub height: u32,
    /// (seconds since start, bytes written) for each output event.
    pub events: Vec<(f64, Vec<u8>)>,
}

impl Cast {
    pub fn parse(text: &str) -> Result<Cast, String> {
        let mut lines = text.lines();
        let header: serde_json::Value = serde_json::from_str(lines.next().unwrap_or(""))
            .map_err(|e| format!("bad cast header: {e}"))?;
        let size = |k: &str| header.get(k).and_then(|v| v.as_u64()).unwrap_or(0) as u32;
        let mut cast = Cast {
            width: size("width"),
            height: size("height"),
            events: Vec::new(),
        };
        for (n, line) in lines.enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let event: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| format!("bad cast event on line {}: {e}", n + 2))?;
            let (Some(t), Some(kind), Some(data)) = (
                event.get(0).and_then(|v| v.as_f64()),
                event.get(1).and_then(|v| v.as_str()),
                event.get(2).and_then(|v| v.as_str()),
            ) else {
                return Err(format!("bad cast event on line {}", n + 2));
            };
            if kind == "o" {
                cast.events.push((t, data.as_bytes().to_vec()));
            }
        }
        Ok(cast)
    }

    /// All output bytes in order.
    pub fn bytes(&self) -> Vec<u8> {
        self.events
            .iter()
            .flat_map(|(_, d)| d.iter().copied())
            .collect()
    }
}
