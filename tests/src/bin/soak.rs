//! The long run (see [`arena_tests::soak`]): `soak [--matches N] [--seed S]`, run by `cargo xtask
//! soak` in release mode.

fn main() {
    let mut matches: u64 = 10_000;
    let mut seed: u64 = 1;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse().ok());
        match (a.as_str(), value) {
            ("--matches", Some(v)) => matches = v,
            ("--seed", Some(v)) => seed = v,
            _ => {
                eprintln!("usage: soak [--matches N] [--seed S]");
                std::process::exit(2);
            }
        }
    }
    if !arena_tests::soak::run(matches, seed) {
        std::process::exit(1);
    }
}
