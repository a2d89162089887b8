//! Measures what RollingMemoryMappedFile's rollover lock costs between rollovers: events per
//! second through MemoryMappedFile and through RollingMemoryMappedFile (size limit never
//! reached), with 1 and 4 threads. Run with
//! `cargo run --release -p l4rs-appenders --example rolling_mmf_cost`.

use std::sync::Arc;
use std::time::Instant;

use l4rs_appenders::{MemoryMappedFileAppender, RollingMemoryMappedFileAppender};
use l4rs_config::model::AppenderKind;
use l4rs_core::{Appender, Level, LogEvent, Message};
use l4rs_test_support::LineLayout;

const EVENTS_PER_THREAD: usize = 2_000_000;

fn run(appender: Arc<dyn Appender>, threads: usize) -> f64 {
    let start = Instant::now();
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let appender = Arc::clone(&appender);
            std::thread::spawn(move || {
                for _ in 0..EVENTS_PER_THREAD {
                    let event = LogEvent::new(
                        "cost",
                        Level::INFO,
                        Message::Text("a typical message of about sixty bytes, give or take"),
                    );
                    let _ = appender.append(&event);
                }
            })
        })
        .collect();
    for worker in workers {
        let _ = worker.join();
    }
    let rate = (threads * EVENTS_PER_THREAD) as f64 / start.elapsed().as_secs_f64();
    appender.stop();
    rate
}

fn main() {
    let dir = std::env::temp_dir().join(format!("l4rs-mmf-cost-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(error) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {error}", dir.display());
        return;
    }
    let xml = format!(
        r#"<Configuration><Appenders>
             <MemoryMappedFile name="M" fileName="{dir}/plain.log" regionLength="33554432"/>
             <RollingMemoryMappedFile name="R" fileName="{dir}/rolling.log"
                 filePattern="{dir}/rolling-%i.log" regionLength="33554432">
               <SizeBasedTriggeringPolicy size="100 GB"/>
             </RollingMemoryMappedFile>
           </Appenders><Loggers><Root level="info"/></Loggers></Configuration>"#,
        dir = dir.display()
    );
    let Ok(config) = l4rs_config::load_str(&xml, None) else {
        eprintln!("the configuration does not load");
        return;
    };
    for threads in [1, 4] {
        for (index, label) in [(0, "MemoryMappedFile"), (1, "RollingMemoryMappedFile")] {
            let _ = std::fs::remove_file(dir.join("plain.log"));
            let _ = std::fs::remove_file(dir.join("rolling.log"));
            let appender: Arc<dyn Appender> = match &config.appenders[index].kind {
                AppenderKind::MemoryMappedFile(spec) => {
                    match MemoryMappedFileAppender::new("M", spec, Arc::new(LineLayout::new())) {
                        Ok(appender) => Arc::new(appender),
                        Err(error) => return eprintln!("{error}"),
                    }
                }
                AppenderKind::RollingMemoryMappedFile(spec) => {
                    match RollingMemoryMappedFileAppender::new(
                        "R",
                        spec,
                        Arc::new(LineLayout::new()),
                    ) {
                        Ok(appender) => Arc::new(appender),
                        Err(error) => return eprintln!("{error}"),
                    }
                }
                _ => return,
            };
            let rate = run(appender, threads);
            println!(
                "{label:<24} {threads} thread(s): {:>6.2} M events/s",
                rate / 1e6
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
