//! `l4rs-bench`: the log4j2 appender benchmark
//! (`config-samples/log4j2-appender.xml`) on l4rs. See `--help` and
//! `docs/benchmarks.md`.

use l4rs_bench::alloc::CountingAllocator;

/// Every allocation of the process is counted, so each row can report bytes per operation.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn main() {
    let code = l4rs_bench::main_with_args(std::env::args().skip(1));
    // Leave through `exit` so l4rs's exit hook runs like in any program; the report is out.
    std::process::exit(code);
}
