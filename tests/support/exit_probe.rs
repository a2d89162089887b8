//! A program that logs through a buffered File appender and then ends without calling
//! `l4rs::shutdown()`, in the way named by its first argument: `return` from main, `exit`
//! through `std::process::exit`, or `panic` in main. Used by `tests/exit_flush.rs`.

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let config = args.next().expect("usage: l4rs-exit-probe MODE CONFIG");
    l4rs::init_with_file(config).expect("configuration loads");
    let logger = l4rs::get_logger("probe");
    for index in 0..1000 {
        l4rs::info!(logger, "event {index}");
    }
    match mode.as_str() {
        "exit" => std::process::exit(0),
        "panic" => panic!("the probe panics without calling shutdown"),
        _ => {}
    }
}
