//! Loads a configuration file and prints how long it took and what it reported (for measuring
//! hostile inputs: `cargo run --release -p l4rs-config --example load_config -- FILE`).

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: load_config FILE");
        std::process::exit(2);
    };
    let started = std::time::Instant::now();
    let result = l4rs_config::load_file_with(
        std::path::Path::new(&path),
        l4rs_config::LoadOptions {
            apply_status_level: false,
        },
    );
    let elapsed = started.elapsed();
    match result {
        Ok(config) => {
            println!(
                "loaded in {elapsed:?}: {} loggers, {} appenders, {} diagnostics",
                config.loggers.loggers.len(),
                config.appenders.len(),
                config.diagnostics.len()
            );
            for diagnostic in config.diagnostics.iter().take(5) {
                let text = diagnostic.to_string();
                println!("  {}", &text[..text.len().min(300)]);
            }
        }
        Err(error) => {
            let text = error.to_string();
            println!("error in {elapsed:?}: {}", &text[..text.len().min(300)]);
        }
    }
}
