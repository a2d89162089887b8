//! JDBC connection strings as status lines and `Debug` output may show them: with their
//! passwords masked. The JDBC appender's own reading of the URLs is in the l4rs-jdbc crate.

/// The user-facing form of a connection string: the value of every `password=` parameter
/// (whatever separates it: `?`, `&`, `;`) and the password of a `//user:password@host` part
/// masked.
pub fn masked(connection_string: &str) -> String {
    let mut out = String::with_capacity(connection_string.len());
    let mut rest = connection_string;
    while let Some(at) = find_ignoring_case(rest, "password=") {
        let value_start = at + "password=".len();
        out.push_str(&rest[..value_start]);
        let value_end = rest[value_start..]
            .find(['&', ';'])
            .map_or(rest.len(), |n| value_start + n);
        out.push_str("***");
        rest = &rest[value_end..];
    }
    out.push_str(rest);
    mask_user_info(&out)
}

/// The byte offset of `needle` (ASCII) in `haystack`, ignoring ASCII case.
fn find_ignoring_case(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

/// `scheme://user:password@host…` with the password masked.
fn mask_user_info(text: &str) -> String {
    let Some(authority_start) = text.find("//").map(|at| at + 2) else {
        return text.to_string();
    };
    let authority_end = text[authority_start..]
        .find(['/', '?'])
        .map_or(text.len(), |n| authority_start + n);
    let authority = &text[authority_start..authority_end];
    match authority.rfind('@') {
        Some(at) => match authority[..at].find(':') {
            Some(colon) => format!(
                "{}{}:***{}",
                &text[..authority_start],
                &authority[..colon],
                &text[authority_start + at..]
            ),
            None => text.to_string(),
        },
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masking_hides_the_password_parameter() {
        assert_eq!(
            masked("jdbc:postgresql://h/d?user=u&password=secret&x=1"),
            "jdbc:postgresql://h/d?user=u&password=***&x=1"
        );
        assert_eq!(masked("jdbc:sqlite:x.db"), "jdbc:sqlite:x.db");
        assert_eq!(
            masked("ser=u&PASSWORD=secret&x=1;password=two"),
            "ser=u&PASSWORD=***&x=1;password=***"
        );
        assert_eq!(
            masked("postgres://u:pa:ss@h:5/d?x=1"),
            "postgres://u:***@h:5/d?x=1"
        );
        assert_eq!(masked("jdbc:x://host/d"), "jdbc:x://host/d");
    }
}
