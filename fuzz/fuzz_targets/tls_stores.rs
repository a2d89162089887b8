//! The key and trust stores of the Socket and Syslog appenders' `<Ssl>`: the bytes of a store
//! file read as PKCS12 and as PEM (with and without the password the first field gives), as
//! the appender reads the file named by `location`.
//!
//! Input: `password NUL store bytes`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (password, store) = match data.iter().position(|byte| *byte == 0) {
        Some(index) => (&data[..index], &data[index + 1..]),
        None => (&b""[..], data),
    };
    let password = String::from_utf8_lossy(password);
    for store_type in ["PKCS12", "PEM"] {
        let _ = l4rs_appenders::fuzzing::fuzz_store(store, store_type, &password);
    }
});
