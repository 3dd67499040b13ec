//! The `zeropty` program.
use mimalloc::MiMalloc;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("-V") => println!("zeropty {}", env!("CARGO_PKG_VERSION")),
        _ => {
            eprintln!("usage: zeropty [-V]");
            std::process::exit(1);
        }
    }
}
