//! The Routing appender under load: four threads over many keys, each key's inline File
//! appender created once and shared by the threads, every event in its key's file exactly
//! once; then the same through an AsyncLogger and an Async appender in front of the Routing
//! appender; then a reload, which keeps a route's file (append mode) as log4j2 does. The
//! configuration is global, so the phases run in one test, in turn.

use std::collections::BTreeMap;
use std::path::Path;

const THREADS: usize = 4;
const KEYS: usize = 40;
const EVENTS_PER_THREAD: usize = 400;

/// A Routing appender keyed on `${ctx:key}` whose default route writes `key-<key>.log`, fed
/// by `logger` (through `front`, the XML of what stands between the logger and the Routing
/// appender, when given).
fn config(dir: &Path, front: &str, root: &str) -> String {
    format!(
        r#"<Configuration status="warn">
  <Appenders>
    <Routing name="R">
      <Routes pattern="$${{ctx:key}}">
        <Route>
          <File name="key-${{ctx:key}}" fileName="{dir}/key-${{ctx:key}}.log" immediateFlush="false">
            <PatternLayout pattern="%X{{key}} %m%n"/>
          </File>
        </Route>
      </Routes>
    </Routing>
    {front}
  </Appenders>
  <Loggers>{root}</Loggers>
</Configuration>"#,
        dir = dir.display()
    )
}

/// Logs from four threads, each event with the key `index % KEYS`; `tag` starts each message.
fn log_from_threads(tag: &str) {
    std::thread::scope(|scope| {
        for thread in 0..THREADS {
            scope.spawn(move || {
                let logger = l4rs::get_logger("app");
                for index in 0..EVENTS_PER_THREAD {
                    let key = (index + thread * 7) % KEYS;
                    l4rs::ThreadContext::put("key", key.to_string());
                    l4rs::info!(logger, "{tag} {thread} {index}");
                }
                l4rs::ThreadContext::clear_all();
            });
        }
    });
}

/// Every `tag` event is in its key's file, once; returns how many lines each file holds.
fn check_files(dir: &Path, tag: &str) -> BTreeMap<usize, usize> {
    let mut counts = BTreeMap::new();
    let mut seen = 0;
    for key in 0..KEYS {
        let lines = l4rs_tests::read_lines(&dir.join(format!("key-{key}.log")));
        counts.insert(key, lines.len());
        let mut tagged: Vec<&String> = lines
            .iter()
            .filter(|line| line.split(' ').nth(1) == Some(tag))
            .collect();
        for line in &tagged {
            let fields: Vec<&str> = line.split(' ').collect();
            let [file_key, _, thread, index] = fields[..] else {
                panic!("malformed line {line:?} in key-{key}.log");
            };
            let (thread, index): (usize, usize) = (thread.parse().unwrap(), index.parse().unwrap());
            assert_eq!(file_key, key.to_string(), "{line:?}");
            assert_eq!(
                (index + thread * 7) % KEYS,
                key,
                "{line:?} in key-{key}.log"
            );
        }
        let before = tagged.len();
        tagged.sort();
        tagged.dedup();
        assert_eq!(
            before,
            tagged.len(),
            "an event written twice in key-{key}.log"
        );
        seen += before;
    }
    assert_eq!(seen, THREADS * EVENTS_PER_THREAD, "events in the key files");
    counts
}

#[test]
fn many_keys_from_four_threads_sync_async_and_across_a_reload() {
    let dir = l4rs_tests::fresh_output_dir("routing-appender");
    let sync = config(
        &dir,
        "",
        r#"<Root level="info"><AppenderRef ref="R"/></Root>"#,
    );
    let config_path = l4rs_tests::write_config(&dir, &sync);
    l4rs::init_with_file(&config_path).expect("the Routing configuration loads");
    log_from_threads("sync");
    l4rs::flush();
    let after_sync = check_files(&dir, "sync");
    // One appender per key: the file of each key was created by the first of its events.
    assert_eq!(after_sync.len(), KEYS);

    // A reload builds a new Routing appender; its routes continue the same files.
    l4rs::reconfigure_with_file(&config_path).expect("the reload succeeds");
    log_from_threads("reloaded");
    l4rs::flush();
    let after_reload = check_files(&dir, "reloaded");
    for (key, count) in &after_reload {
        assert_eq!(
            *count,
            after_sync[key] * 2,
            "key-{key}.log keeps what the first configuration wrote"
        );
    }

    // An AsyncLogger for `app`, and an Async appender in front of the Routing appender.
    let asynchronous = config(
        &dir,
        r#"<Async name="A" bufferSize="2048"><AppenderRef ref="R"/></Async>"#,
        r#"<AsyncLogger name="app" level="info" additivity="false"><AppenderRef ref="A"/></AsyncLogger>
        <Root level="off"/>"#,
    );
    let async_path = dir.join("async.xml");
    std::fs::write(&async_path, asynchronous).unwrap();
    l4rs::reconfigure_with_file(&async_path).expect("the async configuration loads");
    log_from_threads("async");
    l4rs::shutdown();
    check_files(&dir, "async");
}
