//! `<SMTP>`: log4j2's SmtpAppender. The events its filter denies are kept, formatted, in a
//! buffer of the last `bufferSize`; an event the filter lets through (by default one at ERROR
//! or above) sends a mail of the layout's header, the kept events, that event and the footer,
//! with the subject pattern formatted for that event, to every `to`, `cc` and `bcc` address.
//!
//! What it does as log4j2 2.19 (with JavaMail 1.6) does, and where it does better:
//!
//! * the mail's headers, part and transfer encoding are JavaMail's (see [`mime`]);
//! * the mail is sent on the thread that logged the event, one mail at a time, as log4j2
//!   sends it; put an `<Async>` appender in front to keep callers from waiting for the server;
//! * JavaMail's properties that a log4j2 program sets on the JVM are read from
//!   `l4rs::set_system_property`: `mail.<protocol>.starttls.enable` and `.starttls.required`,
//!   `.ssl.checkserveridentity`, `.localhost`, `.from` and the timeouts;
//! * the conversation is bounded (see [`client::Timeouts`]; 10 s each by default), where
//!   JavaMail waits without limit;
//! * a mail the server did not take leaves its events in the buffer, so the next mail carries
//!   them (log4j2 drops them); the buffer never holds more than `bufferSize` events;
//! * an address list that is no list of addresses is refused when the appender is built,
//!   naming the attribute (log4j2 reports it at every mail it then fails to send);
//! * without `subject`, the mail has no `Subject` header (log4j2 2.19 fails every mail with a
//!   NullPointerException).
//!
//! Kept events are formatted when they are kept, into buffers the appender reuses, so keeping
//! one allocates nothing once the buffer has been through its size.

mod address;
mod client;
mod mime;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use l4rs_config::model::SmtpSpec;
use l4rs_core::status::ReportLimit;
use l4rs_core::{AppendError, Appender, Layout, Level, LogEvent, Timestamp};
use l4rs_layout::DateFormatter;

use crate::encode::with_encoded;
use crate::AppenderBuildError;
use address::Mailbox;

/// JavaMail's default ports.
const SMTP_PORT: u16 = 25;
const SMTPS_PORT: u16 = 465;
/// Each step's limit when no `mail.<protocol>.*timeout` property is set.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// log4j2's SmtpAppender (see the module documentation).
pub struct SmtpAppender {
    name: String,
    /// log4j2's manager name, which starts the messages about sending.
    manager_name: String,
    layout: Arc<dyn Layout>,
    subject: Option<Arc<dyn Layout>>,
    content_type: String,
    headers: AddressHeaders,
    /// `MAIL FROM`.
    sender: String,
    /// `RCPT TO`: the `to`, `cc` and `bcc` addresses.
    recipients: Vec<String>,
    /// The server, or why none can be reached (an unknown protocol).
    server: Result<client::Server, String>,
    kept: Mutex<Kept>,
    /// Held while a mail is sent: mails go one at a time, as log4j2 sends them.
    sending: Mutex<()>,
    stopped: AtomicBool,
    /// Failed sends: log4j2 reports each one, l4rs at most one a second with a count, so
    /// that an unreachable server does not print a line per error event.
    send_failures: ReportLimit,
    date: DateFormatter,
    /// The host name in each `Message-ID`.
    host_name: String,
}

/// The address headers, written once.
struct AddressHeaders {
    from: Option<String>,
    reply_to: Option<String>,
    to: Option<String>,
    cc: Option<String>,
}

/// The kept events, oldest first, and the buffers of events already mailed, for reuse.
struct Kept {
    capacity: usize,
    events: VecDeque<Vec<u8>>,
    spare: Vec<Vec<u8>>,
}

impl Kept {
    /// Keeps `bytes` as the newest event, dropping the oldest when the buffer is full.
    fn push(&mut self, bytes: &[u8]) {
        if self.capacity == 0 {
            return;
        }
        let mut slot = if self.events.len() == self.capacity {
            self.events.pop_front().unwrap_or_default()
        } else {
            self.spare.pop().unwrap_or_default()
        };
        slot.clear();
        if slot.capacity() < bytes.len() {
            // Room to spare: an event's text grows now and then (an HtmlLayout's elapsed
            // milliseconds gain a digit), and each slot would otherwise grow by reallocating.
            slot.reserve(bytes.len() + bytes.len() / 4);
        }
        slot.extend_from_slice(bytes);
        self.events.push_back(slot);
    }

    /// Puts back events of a mail that could not be sent, before any kept since, keeping the
    /// newest `capacity`; the older ones are dropped.
    fn restore(&mut self, mut mailed: Vec<Vec<u8>>) {
        mailed.extend(self.events.drain(..));
        let skip = mailed.len().saturating_sub(self.capacity);
        self.events.extend(mailed.into_iter().skip(skip));
        self.trim_spare();
    }

    /// Takes back the buffers of mailed events for reuse.
    fn recycle(&mut self, mailed: Vec<Vec<u8>>) {
        self.spare.extend(mailed);
        self.trim_spare();
    }

    /// Keeps no more buffers than the kept events can fill: the memory of the buffer stays
    /// bounded by `bufferSize` events, however many mails fail.
    fn trim_spare(&mut self) {
        let room = self.capacity.saturating_sub(self.events.len());
        self.spare.truncate(room);
    }
}

impl SmtpAppender {
    /// Builds the appender: `layout` formats the mail's text and `subject` (the `subject`
    /// pattern's PatternLayout) its subject. Fails when an address list is no list of
    /// addresses, or the `<Ssl>` trust store cannot be loaded.
    pub fn new(
        name: impl Into<String>,
        spec: &SmtpSpec,
        layout: Arc<dyn Layout>,
        subject: Option<Arc<dyn Layout>>,
    ) -> Result<SmtpAppender, AppenderBuildError> {
        let name = name.into();
        let prepared = prepare(&name, spec)?;
        Ok(SmtpAppender {
            manager_name: spec.manager_name.clone(),
            content_type: layout.content_type(),
            layout,
            subject,
            headers: prepared.headers,
            sender: prepared.sender,
            recipients: prepared.recipients,
            server: prepared.server,
            kept: Mutex::new(Kept {
                capacity: spec.buffer_size,
                events: VecDeque::new(),
                spare: Vec::new(),
            }),
            sending: Mutex::new(()),
            stopped: AtomicBool::new(false),
            send_failures: ReportLimit::per_second(),
            date: DateFormatter::new(Some("EEE, d MMM yyyy HH:mm:ss Z (z)"), None),
            host_name: prepared.host_name,
            name,
        })
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends the mail `event` triggers; the error is the reason, for the status message.
    fn send(&self, event: &LogEvent<'_>) -> Result<(), String> {
        let mut content = Vec::new();
        with_encoded(
            &*self.layout,
            |text| self.layout.header(text),
            |bytes| content.extend_from_slice(bytes),
        );
        let mailed: Vec<Vec<u8>> = self.kept().events.drain(..).collect();
        for bytes in &mailed {
            content.extend_from_slice(bytes);
        }
        let mut trigger = Vec::new();
        with_encoded(
            &*self.layout,
            |text| self.layout.format(event, text),
            |bytes| trigger.extend_from_slice(bytes),
        );
        content.extend_from_slice(&trigger);
        with_encoded(
            &*self.layout,
            |text| self.layout.footer(text),
            |bytes| content.extend_from_slice(bytes),
        );
        let subject = self.subject.as_ref().map(|layout| {
            let mut subject = String::new();
            layout.format(event, &mut subject);
            subject
        });
        let result = self.transmit(&content, subject.as_deref());
        let mut kept = self.kept();
        match result {
            Ok(()) => {
                kept.recycle(mailed);
                Ok(())
            }
            // The server certainly did not take the mail: its events go with the next one.
            Err(failure) if failure.unsent => {
                let mut unsent = mailed;
                unsent.push(trigger);
                kept.restore(unsent);
                Err(failure.reason)
            }
            // It may have taken it: sending the events again could deliver them twice.
            Err(failure) => {
                kept.recycle(mailed);
                Err(failure.reason)
            }
        }
    }

    /// Writes the message and holds the conversation, one mail at a time.
    fn transmit(&self, content: &[u8], subject: Option<&str>) -> Result<(), client::Failure> {
        let server = self.server.as_ref().map_err(|reason| client::Failure {
            reason: reason.clone(),
            unsent: true,
        })?;
        let _one_at_a_time = self.sending.lock().unwrap_or_else(|e| e.into_inner());
        let now = Timestamp::now();
        let millis = now.epoch_seconds() * 1000 + i64::from(now.nano_of_second() / 1_000_000);
        // JavaMail's forms: a hash, a counter and the time, the counters process-wide, so
        // that two appenders' mails of one millisecond still differ.
        static PARTS: AtomicU64 = AtomicU64::new(0);
        static MESSAGES: AtomicU64 = AtomicU64::new(1);
        let part = PARTS.fetch_add(1, Ordering::Relaxed);
        let id = MESSAGES.fetch_add(1, Ordering::Relaxed);
        let unique = (std::process::id() as u64).wrapping_mul(2_654_435_761) % 1_000_000_000;
        let boundary = format!("----=_Part_{part}_{unique}.{millis}");
        let message_id = format!("<{unique}.{id}.{millis}@{}>", self.host_name);
        let mut date = String::new();
        self.date.format(now, &mut date);
        let headers = mime::Headers {
            date: &date,
            from: self.headers.from.as_deref(),
            reply_to: self.headers.reply_to.as_deref(),
            to: self.headers.to.as_deref(),
            cc: self.headers.cc.as_deref(),
            message_id: &message_id,
            subject,
        };
        let mut message = Vec::with_capacity(content.len() + 1024);
        mime::write_message(
            &headers,
            &boundary,
            &self.content_type,
            content,
            &mut message,
        );
        client::send(server, &self.sender, &self.recipients, &message)
    }
}

/// What the appender works out from its attributes once: the headers, the envelope and the
/// server.
struct Prepared {
    headers: AddressHeaders,
    sender: String,
    recipients: Vec<String>,
    server: Result<client::Server, String>,
    host_name: String,
}

/// Reads the address lists and the server; fails when a list is no list of addresses or the
/// trust store cannot be loaded.
fn prepare(name: &str, spec: &SmtpSpec) -> Result<Prepared, AppenderBuildError> {
    let list = |attribute: &str,
                value: &Option<String>|
     -> Result<Vec<Mailbox>, AppenderBuildError> {
        match value {
            None => Ok(Vec::new()),
            Some(value) => address::parse_list(value).map_err(|reason| AppenderBuildError::Smtp {
                message: format!(
                    "SmtpAppender {name}: {attribute}=\"{value}\" is not a list of mail addresses: {reason}"
                ),
                help: Some(format!(
                    "write {attribute} as comma-separated addresses such as ops@example.com or \"Ops Team\" <ops@example.com>; {name} is not created"
                )),
            }),
        }
    };
    let (to, cc, bcc) = (
        list("to", &spec.to)?,
        list("cc", &spec.cc)?,
        list("bcc", &spec.bcc)?,
    );
    let from = list("from", &spec.from)?;
    let reply_to = list("replyTo", &spec.reply_to)?;
    let host_name = l4rs_config::local_host_name();
    let property =
        |key: &str| l4rs_config::system_property(&format!("mail.{}.{key}", spec.protocol));
    // Without `from`, JavaMail writes the local address: the user at this host.
    let from = match from.into_iter().next() {
        Some(mailbox) => Some(mailbox),
        None => local_address(&host_name).map(|address| Mailbox {
            address,
            personal: None,
        }),
    };
    let sender = property("from")
        .or_else(|| from.as_ref().map(|mailbox| mailbox.address.clone()))
        .unwrap_or_default();
    // The sender may come from a property rather than `from`; it goes into `MAIL FROM` as it is.
    if !sender.is_empty() && address::parse_list(&sender).map(|list| list.len()) != Ok(1) {
        return Err(AppenderBuildError::Smtp {
            message: format!(
                "SmtpAppender {name}: the sender \"{sender}\" (mail.{}.from, mail.from or the user's name) is not one mail address",
                spec.protocol
            ),
            help: Some(format!("give {name} from=\"…\" with one address, or set mail.{}.from to one", spec.protocol)),
        });
    }
    let header = |name: &str, mailboxes: &[Mailbox]| {
        (!mailboxes.is_empty()).then(|| address::header_value(mailboxes, name.len() + 2))
    };
    let headers = AddressHeaders {
        from: header("From", from.as_slice()),
        reply_to: header("Reply-To", &reply_to),
        to: header("To", &to),
        cc: header("Cc", &cc),
    };
    let recipients = to
        .iter()
        .chain(&cc)
        .chain(&bcc)
        .map(|mailbox| mailbox.address.clone())
        .collect();
    let server = server(name, spec, &host_name, property)?;
    Ok(Prepared {
        headers,
        sender,
        recipients,
        server,
        host_name,
    })
}

/// What `l4rs check` can judge without sending: the address lists and the trust store.
pub(crate) fn check(name: &str, spec: &SmtpSpec) -> Result<(), AppenderBuildError> {
    prepare(name, spec).map(|_| ())
}

/// The server `spec` names, or why it cannot be reached (an unknown protocol, reported at each
/// mail as JavaMail reports it); an error when its trust store cannot be loaded.
///
/// `property` reads the JavaMail properties a log4j2 program sets on the JVM and log4j2
/// passes to JavaMail's session: `mail.<protocol>.…` timeouts, `localhost`, and for `smtp`
/// `starttls.enable` and `starttls.required`.
fn server(
    name: &str,
    spec: &SmtpSpec,
    host_name: &str,
    property: impl Fn(&str) -> Option<String>,
) -> Result<Result<client::Server, String>, AppenderBuildError> {
    let flag =
        |key: &str| property(key).is_some_and(|value| value.trim().eq_ignore_ascii_case("true"));
    let encryption = match spec.protocol.as_str() {
        "smtps" => client::Encryption::Implicit,
        "smtp" if flag("starttls.required") => client::Encryption::StartTlsRequired,
        "smtp" if flag("starttls.enable") => client::Encryption::StartTls,
        "smtp" => client::Encryption::Plain,
        other => {
            return Ok(Err(format!(
                "javax.mail.NoSuchProviderException: No provider for {other} (help: smtpProtocol must be smtp or smtps)"
            )))
        }
    };
    let millis = |key: &str| {
        property(key)
            .and_then(|value| value.trim().parse::<u64>().ok())
            .filter(|&millis| millis > 0)
            .map_or(DEFAULT_TIMEOUT, Duration::from_millis)
    };
    let tls_config = if encryption == client::Encryption::Plain {
        None
    } else {
        // The appender's <Ssl>, else the system's certificate authorities; the host name is
        // checked when <Ssl verifyHostName="true"> or `mail.<protocol>.ssl.checkserveridentity`
        // asks for it (JavaMail 1.6 does not check it by default).
        let mut ssl = spec
            .ssl
            .clone()
            .unwrap_or_else(crate::socket::tls::system_trust);
        ssl.verify_host_name |= flag("ssl.checkserveridentity");
        Some(
            crate::socket::tls::client_config(name, &ssl).map_err(|error| {
                AppenderBuildError::Smtp {
                    message: error.to_string(),
                    help: error.help(),
                }
            })?,
        )
    };
    let debug: Option<client::DebugSink> = spec
        .debug
        .then(|| Arc::new(|line: &str| eprintln!("DEBUG SMTP: {line}")) as client::DebugSink);
    Ok(Ok(client::Server {
        host: spec.host.clone().unwrap_or_else(|| host_name.to_string()),
        port: match spec.port {
            0 if encryption == client::Encryption::Implicit => SMTPS_PORT,
            0 => SMTP_PORT,
            port => port,
        },
        encryption,
        tls_config,
        login: spec.username.clone().zip(spec.password.clone()),
        client_name: property("localhost").unwrap_or_else(|| host_name.to_string()),
        timeouts: client::Timeouts {
            connect: millis("connectiontimeout"),
            read: millis("timeout"),
            write: millis("writetimeout"),
        },
        debug,
    }))
}

/// JavaMail's local address: `mail.from`, else the user's name (Java's `user.name`, the
/// account the process runs as) at this host.
fn local_address(host_name: &str) -> Option<String> {
    l4rs_config::system_property("mail.from").or_else(|| {
        let user = l4rs_config::system_property("user.name").or_else(account_name)?;
        Some(format!("{user}@{host_name}"))
    })
}

/// The name of the account the process runs as (`getpwuid_r` of the effective user).
fn account_name() -> Option<String> {
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut text = vec![0 as libc::c_char; 4096];
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: `entry`, `text` and `found` outlive the call, which writes only within them.
    let status = unsafe {
        libc::getpwuid_r(
            libc::geteuid(),
            &mut entry,
            text.as_mut_ptr(),
            text.len(),
            &mut found,
        )
    };
    if status != 0 || found.is_null() || entry.pw_name.is_null() {
        return None;
    }
    // SAFETY: on success `pw_name` points to a NUL-terminated string inside `text`.
    let name = unsafe { std::ffi::CStr::from_ptr(entry.pw_name) };
    Some(name.to_string_lossy().into_owned()).filter(|name| !name.is_empty())
}

/// What the fuzz target `smtp_mail` checks: the mailboxes read from an address list, the
/// `To` header written from them, and a mail of `content`.
#[cfg(fuzzing)]
pub struct FuzzedMail {
    /// Each mailbox's address and display name.
    pub mailboxes: Vec<(String, Option<String>)>,
    /// The `To` header's value.
    pub to_header: String,
    /// The transfer encoding chosen for `content`.
    pub encoding: &'static str,
    /// `content`, encoded.
    pub encoded: Vec<u8>,
    /// The whole message.
    pub message: Vec<u8>,
}

/// The fuzz target `smtp_mail`: reads `list` as `to`, and writes a mail with `subject` and
/// `content` of `content_type`; `Err` when the list is refused.
#[cfg(fuzzing)]
pub fn fuzz_mail(
    list: &str,
    subject: &str,
    content: &[u8],
    content_type: &str,
) -> Result<FuzzedMail, String> {
    let mailboxes = address::parse_list(list)?;
    let to_header = address::header_value(&mailboxes, "To: ".len());
    let encoding = mime::transfer_encoding(content, content_type);
    let mut encoded = Vec::new();
    mime::encode_content(content, encoding, &mut encoded);
    let mut message = Vec::new();
    mime::write_message(
        &mime::Headers {
            date: "Mon, 7 Dec 2026 06:28:53 +0000 (UTC)",
            from: None,
            reply_to: None,
            to: Some(&to_header),
            cc: None,
            message_id: "<1.1.1@fuzz>",
            subject: Some(subject),
        },
        "----=_Part_0_1.1",
        content_type,
        content,
        &mut message,
    );
    Ok(FuzzedMail {
        mailboxes: mailboxes
            .into_iter()
            .map(|mailbox| (mailbox.address, mailbox.personal))
            .collect(),
        to_header,
        encoding: encoding.name(),
        encoded,
        message,
    })
}

impl Appender for SmtpAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if self.stopped.load(Ordering::Relaxed) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        match self.send(event) {
            Ok(()) => Ok(()),
            Err(reason) => {
                self.send_failures.report(
                    Level::ERROR,
                    format_args!(
                        "SmtpManager {} Caught exception while sending e-mail notification.: {reason}",
                        self.manager_name
                    ),
                );
                Err(AppendError::Failed(
                    "org.apache.logging.log4j.LoggingException: Error occurred while sending email"
                        .to_string(),
                ))
            }
        }
    }

    fn denied_by_filter(&self, event: &LogEvent<'_>) {
        if self.stopped.load(Ordering::Relaxed) {
            return;
        }
        with_encoded(
            &*self.layout,
            |text| self.layout.format(event, text),
            |bytes| self.kept().push(bytes),
        );
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    fn requires_location(&self) -> bool {
        self.layout.requires_location()
            || self
                .subject
                .as_ref()
                .is_some_and(|subject| subject.requires_location())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_events_and_puts_back_those_of_a_failed_mail() {
        let mut kept = Kept {
            capacity: 3,
            events: VecDeque::new(),
            spare: Vec::new(),
        };
        for event in [b"1", b"2", b"3", b"4"] {
            kept.push(event);
        }
        let texts = |kept: &Kept| kept.events.iter().map(|e| e[0]).collect::<Vec<_>>();
        assert_eq!(texts(&kept), b"234");
        let mailed: Vec<Vec<u8>> = kept.events.drain(..).collect();
        kept.push(b"5");
        kept.restore(mailed);
        assert_eq!(texts(&kept), b"345", "the newest three, in order");
        let empty = &mut Kept {
            capacity: 0,
            events: VecDeque::new(),
            spare: Vec::new(),
        };
        empty.push(b"x");
        assert!(empty.events.is_empty());
    }

    #[test]
    fn failing_mails_keep_no_more_buffers_than_the_buffer_holds() {
        for capacity in [0, 3] {
            let mut kept = Kept {
                capacity,
                events: VecDeque::new(),
                spare: Vec::new(),
            };
            for _ in 0..100 {
                kept.push(b"kept");
                let mailed: Vec<Vec<u8>> = kept.events.drain(..).collect();
                let mut unsent = mailed;
                unsent.push(b"trigger".to_vec());
                kept.restore(unsent);
                assert!(
                    kept.events.len() + kept.spare.len() <= capacity,
                    "{capacity}"
                );
            }
            let mailed: Vec<Vec<u8>> = kept.events.drain(..).collect();
            kept.recycle(mailed);
            assert!(kept.spare.len() <= capacity);
        }
    }
}
