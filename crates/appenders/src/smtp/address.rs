//! The address lists of `to`, `cc`, `bcc`, `from` and `replyTo`, read as JavaMail's
//! `InternetAddress.parse(list, true)` reads them, and written back as its `toString()` writes
//! them into a header.

/// One mailbox: the address the server is given, and the name shown with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mailbox {
    /// `local@domain`.
    pub address: String,
    /// The display name (`Jane Doe <jane@example.com>`, or `jane@example.com (Jane Doe)`).
    pub personal: Option<String>,
}

/// RFC 822's specials, which a display name must be quoted to hold.
const SPECIALS: &str = "()<>@,;:\\\".[]";

impl Mailbox {
    /// The mailbox as JavaMail writes it in a header: the address alone, or the display name
    /// then `<address>`. The name is quoted when it holds a special character or one outside
    /// ASCII, and is not encoded: JavaMail takes a parsed name as already encoded, so a
    /// non-ASCII one goes out as UTF-8 bytes, which mail readers show as written.
    pub(crate) fn header_text(&self) -> String {
        match &self.personal {
            None => self.address.clone(),
            Some(personal) => format!("{} <{}>", quote_phrase(personal), self.address),
        }
    }
}

/// JavaMail's `quotePhrase`: a phrase with a special or control character is put in double
/// quotes, with `"` and `\` escaped.
fn quote_phrase(phrase: &str) -> String {
    let needs_quotes = phrase.chars().any(|c| {
        SPECIALS.contains(c) || (c < ' ' && !matches!(c, '\r' | '\n' | '\t')) || c >= '\u{7f}'
    });
    if !needs_quotes {
        return phrase.to_string();
    }
    let mut quoted = String::with_capacity(phrase.len() + 2);
    quoted.push('"');
    for c in phrase.chars() {
        if c == '"' || c == '\\' {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

/// Reads a comma-separated address list. An empty entry is skipped, as JavaMail skips it; an
/// entry that is no address is an error naming it and why.
pub(crate) fn parse_list(list: &str) -> Result<Vec<Mailbox>, String> {
    let mut mailboxes = Vec::new();
    for entry in split_entries(list)? {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        mailboxes.push(parse_mailbox(entry)?);
    }
    Ok(mailboxes)
}

/// Splits at the commas that are outside quotes, comments and angle brackets.
fn split_entries(list: &str) -> Result<Vec<&str>, String> {
    let mut entries = Vec::new();
    let (mut start, mut quoted, mut comment, mut angle) = (0, false, 0usize, false);
    let mut escaped = false;
    for (index, c) in list.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' if quoted || comment > 0 => escaped = true,
            '"' if comment == 0 => quoted = !quoted,
            '(' if !quoted => comment += 1,
            ')' if !quoted && comment > 0 => comment -= 1,
            ')' if !quoted => return Err(format!("unbalanced ')' in \"{list}\"")),
            '<' if !quoted && comment == 0 => angle = true,
            '>' if !quoted && comment == 0 => angle = false,
            ',' if !quoted && comment == 0 && !angle => {
                entries.push(&list[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err(format!("missing '\"' in \"{list}\""));
    }
    if comment > 0 {
        return Err(format!("missing ')' in \"{list}\""));
    }
    if angle {
        return Err(format!("missing '>' in \"{list}\""));
    }
    entries.push(&list[start..]);
    Ok(entries)
}

/// One entry: `address`, `<address>`, `name <address>`, `"name" <address>` or
/// `address (name)`.
fn parse_mailbox(entry: &str) -> Result<Mailbox, String> {
    if let Some(open) = find_unquoted(entry, '<') {
        let close = entry[open..]
            .find('>')
            .map(|offset| open + offset)
            .ok_or_else(|| format!("missing '>' in \"{entry}\""))?;
        if !entry[close + 1..].trim().is_empty() {
            return Err(format!("text after '>' in \"{entry}\""));
        }
        let address = entry[open + 1..close].trim();
        check_address(address, entry)?;
        let phrase = unquote(entry[..open].trim());
        return Ok(Mailbox {
            address: address.to_string(),
            personal: (!phrase.is_empty()).then_some(phrase),
        });
    }
    let (address, comment) = match find_unquoted(entry, '(') {
        Some(open) => {
            let close = entry.rfind(')').unwrap_or(entry.len());
            (
                format!(
                    "{}{}",
                    &entry[..open],
                    &entry[(close + 1).min(entry.len())..]
                ),
                Some(entry[open + 1..close].trim().to_string()),
            )
        }
        None => (entry.to_string(), None),
    };
    let address = address.trim();
    check_address(address, entry)?;
    Ok(Mailbox {
        address: address.to_string(),
        personal: comment.filter(|comment| !comment.is_empty()),
    })
}

/// The first `wanted` outside double quotes.
fn find_unquoted(text: &str, wanted: char) -> Option<usize> {
    let (mut quoted, mut escaped) = (false, false);
    for (index, c) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' && quoted {
            escaped = true;
        } else if c == '"' {
            quoted = !quoted;
        } else if c == wanted && !quoted {
            return Some(index);
        }
    }
    None
}

/// A display name without its quotes and escapes.
fn unquote(phrase: &str) -> String {
    let Some(inner) = phrase
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    else {
        return phrase.to_string();
    };
    let mut text = String::with_capacity(inner.len());
    let mut escaped = false;
    for c in inner.chars() {
        if c == '\\' && !escaped {
            escaped = true;
            continue;
        }
        escaped = false;
        text.push(c);
    }
    text
}

/// The checks of JavaMail's strict parse: `local@domain`, with no white space or control
/// character, and no RFC 822 special in an unquoted local part or in the domain.
fn check_address(address: &str, entry: &str) -> Result<(), String> {
    const FORBIDDEN: &str = "()<>,;:\\\"[]@";
    let problem = if address.is_empty() {
        Some("empty address")
    } else if address.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("white space or a control character in the address")
    } else {
        match address.rsplit_once('@') {
            None => Some("missing final '@domain'"),
            Some(("", _)) => Some("missing local name before '@'"),
            Some((_, "")) => Some("missing domain after '@'"),
            Some((_, domain))
                if domain.starts_with('.') || domain.ends_with('.') || domain.contains("..") =>
            {
                Some("the domain has an empty label")
            }
            Some((local, domain)) => {
                let quoted = local.len() >= 2 && local.starts_with('"') && local.ends_with('"');
                if (!quoted && local.contains(|c| FORBIDDEN.contains(c)))
                    || domain.contains(|c| FORBIDDEN.contains(c))
                {
                    Some("a special character in the address")
                } else {
                    None
                }
            }
        }
    };
    match problem {
        Some(problem) => Err(format!("{problem} in \"{entry}\"")),
        None => Ok(()),
    }
}

/// JavaMail's `InternetAddress.toString(addresses, used)`: the mailboxes separated by `, `, a
/// new line (CRLF and a tab) before any that would pass column 76; `used` counts the header
/// name and its `: `.
pub(crate) fn header_value(mailboxes: &[Mailbox], mut used: usize) -> String {
    let mut value = String::new();
    for (index, mailbox) in mailboxes.iter().enumerate() {
        if index != 0 {
            value.push_str(", ");
            used += 2;
        }
        let text = super::mime::fold(0, &mailbox.header_text());
        let first_segment = super::mime::java_length(text.split("\r\n").next().unwrap_or(""));
        if used + first_segment > 76 {
            if value.ends_with(' ') {
                value.pop();
            }
            value.push_str("\r\n\t");
            used = 8;
        }
        value.push_str(&text);
        used = match text.rfind("\r\n") {
            Some(position) => super::mime::java_length(&text[position + 2..]),
            None => used + super::mime::java_length(&text),
        };
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mailbox(address: &str, personal: Option<&str>) -> Mailbox {
        Mailbox {
            address: address.to_string(),
            personal: personal.map(str::to_string),
        }
    }

    #[test]
    fn reads_the_forms_of_an_address() {
        assert_eq!(
            parse_list(r#"a@example.com, B <b@example.com>,"Doe, Jane" <j@example.com>, <c@x.org>, d@x.org (Dee),, "#)
                .unwrap(),
            vec![
                mailbox("a@example.com", None),
                mailbox("b@example.com", Some("B")),
                mailbox("j@example.com", Some("Doe, Jane")),
                mailbox("c@x.org", None),
                mailbox("d@x.org", Some("Dee")),
            ]
        );
    }

    #[test]
    fn refuses_what_is_no_address_and_says_why() {
        for (list, why) in [
            ("root", "missing final '@domain'"),
            ("a b@example.com", "white space"),
            ("@example.com", "missing local name"),
            ("a@", "missing domain"),
            ("a@x..org", "empty label"),
            ("a;b@x.org", "special character"),
            ("Jane <j@example.com", "missing '>'"),
            ("\"Jane <j@example.com>", "missing '\"'"),
        ] {
            let error = parse_list(list).expect_err(list);
            assert!(error.contains(why), "{list}: {error}");
        }
    }

    #[test]
    fn writes_names_quoted_where_rfc_822_needs_it() {
        assert_eq!(mailbox("b@x.org", Some("B")).header_text(), "B <b@x.org>");
        assert_eq!(
            mailbox("j@x.org", Some("Doe, Jane")).header_text(),
            "\"Doe, Jane\" <j@x.org>"
        );
        assert_eq!(
            mailbox("j@x.org", Some("Zoë")).header_text(),
            "\"Zoë\" <j@x.org>"
        );
    }

    #[test]
    fn folds_a_long_list_before_the_address_that_would_pass_column_76() {
        let list: Vec<Mailbox> = (0..5)
            .map(|i| mailbox(&format!("recipient-number-{i}@example.com"), None))
            .collect();
        let value = header_value(&list, "To: ".len());
        assert_eq!(
            value,
            "recipient-number-0@example.com, recipient-number-1@example.com,\r\n\trecipient-number-2@example.com, recipient-number-3@example.com,\r\n\trecipient-number-4@example.com"
        );
    }
}
