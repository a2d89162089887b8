//! `tracing` events from a real HTTP server, routed by l4rs: an axum server on tokio listens on
//! 127.0.0.1, a plain `std::net::TcpStream` client in the same program sends it a few
//! requests, and every `tracing` event — the example's own (logger `shop`, with fields and
//! spans) and axum's (a rejected request, logged at TRACE under `axum::rejection`) — goes
//! through `l4rs::tracing::layer()` into `examples/tracing_http.xml`: a RollingFile of one
//! JSON object a line.
//!
//! ```sh
//! cargo run -p l4rs --features tracing --example tracing_http [LOG_FOLDER]
//! ```

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use axum::extract::Path;
use axum::routing::get;
use axum::Router;

/// The example's configuration, beside this file.
pub(crate) const CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tracing_http.xml");

/// The requests the client sends: a page, an item, and an item id that is not a number
/// (axum rejects it and logs the rejection).
pub(crate) const REQUESTS: [&str; 3] = ["/", "/items/7", "/items/seven"];

/// Loads the configuration with its log folder set to `dir`, installs the layer, serves
/// [`REQUESTS`] and returns each response's status line; the log is `{dir}/http.log`.
pub(crate) fn run(dir: &str) -> Vec<String> {
    l4rs::set_system_property("example.dir", dir);
    if let Err(error) = l4rs::init_with_file(CONFIG) {
        eprintln!("{error}");
    }
    // Not `tracing_subscriber`'s `init()`: with its default `tracing-log` feature it panics
    // here, since l4rs's `log` bridge already holds `log` (see `l4rs::tracing::install`).
    if let Err(error) = l4rs::tracing::init() {
        eprintln!("{error}");
    }
    let statuses = serve_and_request(&REQUESTS);
    l4rs::shutdown();
    statuses
}

/// Starts the server on an ephemeral port of 127.0.0.1, sends one GET request per path, one
/// connection each, and stops the server.
fn serve_and_request(paths: &[&str]) -> Vec<String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("http-worker")
        .enable_io()
        .build()
        .expect("a tokio runtime");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a port on 127.0.0.1");
    let addr = listener.local_addr().expect("the listener's address");
    let app = Router::new()
        .route("/", get(index))
        .route("/items/{id}", get(item));
    runtime.spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            tracing::error!(target: "shop", %error, "server stopped");
        }
    });
    tracing::info!(target: "shop", %addr, "listening");
    let statuses = paths.iter().map(|path| request(addr, path)).collect();
    runtime.shutdown_timeout(Duration::from_secs(1));
    statuses
}

async fn index() -> &'static str {
    tracing::info!(target: "shop", "index served");
    "shop\n"
}

async fn item(Path(id): Path<u32>) -> String {
    // No `.await` below: the span is entered and left within one poll.
    let span = tracing::info_span!(target: "shop", "item", id);
    let _entered = span.enter();
    tracing::debug!(target: "shop", cache = "miss", "looking up item {id}");
    format!("item {id}\n")
}

/// One GET request over a fresh connection; the response's status line (or what went wrong).
fn request(addr: SocketAddr, path: &str) -> String {
    let exchange = || -> std::io::Result<String> {
        let mut stream = TcpStream::connect(addr)?;
        stream.set_read_timeout(Some(Duration::from_secs(5)))?;
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )?;
        let mut response = String::new();
        stream.read_to_string(&mut response)?;
        Ok(response.lines().next().unwrap_or("").to_string())
    };
    exchange().unwrap_or_else(|error| format!("request failed: {error}"))
}

#[allow(dead_code)] // The example's test includes this file and calls `run`.
fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/tracing-example".to_string());
    for (path, status) in REQUESTS.iter().zip(run(&dir)) {
        println!("GET {path}: {status}");
    }
    println!("log: {dir}/http.log");
}
