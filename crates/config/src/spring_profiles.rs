//! Spring's profiles, for log4j2's `<SpringProfile name="…">` arbiter: the profile expressions
//! Spring's `Profiles.of` reads (`prod`, `!dev`, `prod & cloud`, `(eu | us) & !test`, several
//! separated by commas), and the profiles a Rust program has active.
//!
//! A Rust program has no Spring environment. What a Spring Boot service is usually given in
//! its deployment, `SPRING_PROFILES_ACTIVE`, stands in for it: the l4rs system property
//! `spring.profiles.active`, else that variable, lists the active profiles (commas, blanks
//! ignored); without any, `spring.profiles.default` / `SPRING_PROFILES_DEFAULT` does, or the
//! profile `default`, as in Spring. The same stand-in answers `${spring:…}` ([`lookup`]).

/// A parsed profile expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileExpression {
    /// The profile of that name is active.
    Profile(String),
    /// The expression does not hold.
    Not(Box<ProfileExpression>),
    /// Every expression holds (`&`).
    All(Vec<ProfileExpression>),
    /// Some expression holds (`|`, or neighbours without an operator).
    Any(Vec<ProfileExpression>),
}

impl ProfileExpression {
    /// Whether the expression holds when `active` lists the profiles in effect.
    pub fn holds(&self, active: &[String]) -> bool {
        match self {
            ProfileExpression::Profile(name) => active.iter().any(|profile| profile == name),
            ProfileExpression::Not(inner) => !inner.holds(active),
            ProfileExpression::All(all) => all.iter().all(|e| e.holds(active)),
            ProfileExpression::Any(any) => any.iter().any(|e| e.holds(active)),
        }
    }
}

/// Why an expression was refused, in Spring's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileExpressionError {
    /// An empty expression.
    #[error("Invalid profile expression [{0}]: must contain text")]
    Empty(String),
    /// `&` and `|` mixed at one level, or an operator with nothing to apply to.
    #[error("Malformed profile expression [{0}]")]
    Malformed(String),
}

/// Parses the `name` of a `<SpringProfile>`: comma-separated expressions, of which any may
/// hold.
pub fn parse_profiles(names: &str) -> Result<ProfileExpression, ProfileExpressionError> {
    let expressions = names
        .split(',')
        .map(|expression| parse_expression(java_trim(expression)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ProfileExpression::Any(expressions))
}

/// Where the parser is: at the top, after `!` (one operand), or inside parentheses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Nesting {
    Top,
    Negated,
    Bracketed,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Operator {
    And,
    Or,
}

fn parse_expression(expression: &str) -> Result<ProfileExpression, ProfileExpressionError> {
    if expression.chars().all(java_is_whitespace) {
        return Err(ProfileExpressionError::Empty(expression.to_string()));
    }
    let mut tokens = tokens(expression).into_iter();
    parse_tokens(expression, &mut tokens, Nesting::Top)
}

/// The expression's tokens: each of `( ) & | !`, and the trimmed, non-empty text between them.
fn tokens(expression: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut start = 0;
    for (at, c) in expression.char_indices() {
        if "()&|!".contains(c) {
            tokens.push(&expression[start..at]);
            tokens.push(&expression[at..at + 1]);
            start = at + 1;
        }
    }
    tokens.push(&expression[start..]);
    tokens
        .into_iter()
        .map(java_trim)
        .filter(|token| !token.is_empty())
        .collect()
}

fn parse_tokens<'a>(
    expression: &str,
    tokens: &mut impl Iterator<Item = &'a str>,
    nesting: Nesting,
) -> Result<ProfileExpression, ProfileExpressionError> {
    let malformed = || ProfileExpressionError::Malformed(expression.to_string());
    let mut operands = Vec::new();
    let mut operator = None;
    while let Some(token) = tokens.next() {
        match token {
            "(" => {
                let inner = parse_tokens(expression, tokens, Nesting::Bracketed)?;
                if nesting == Nesting::Negated {
                    return Ok(inner);
                }
                operands.push(inner);
            }
            "&" | "|" => {
                let this = if token == "&" {
                    Operator::And
                } else {
                    Operator::Or
                };
                if operator.is_some_and(|earlier| earlier != this) {
                    return Err(malformed());
                }
                operator = Some(this);
            }
            "!" => {
                let negated = parse_tokens(expression, tokens, Nesting::Negated)?;
                operands.push(ProfileExpression::Not(Box::new(negated)));
            }
            ")" => {
                let merged = merge(operands, operator).ok_or_else(malformed)?;
                if nesting == Nesting::Bracketed {
                    return Ok(merged);
                }
                operands = vec![merged];
                operator = None;
            }
            name => {
                let profile = ProfileExpression::Profile(name.to_string());
                if nesting == Nesting::Negated {
                    return Ok(profile);
                }
                operands.push(profile);
            }
        }
    }
    // As in Spring, an unclosed parenthesis ends with the expression.
    merge(operands, operator).ok_or_else(malformed)
}

fn merge(
    mut operands: Vec<ProfileExpression>,
    operator: Option<Operator>,
) -> Option<ProfileExpression> {
    match operands.len() {
        0 => None,
        1 => operands.pop(),
        _ if operator == Some(Operator::And) => Some(ProfileExpression::All(operands)),
        _ => Some(ProfileExpression::Any(operands)),
    }
}

/// Where the stand-in Spring environment reads a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source<'a> {
    /// An l4rs system property (`l4rs::set_system_property`), as a `-D` option would set it.
    Property(&'a str),
    /// An environment variable.
    Variable(&'a str),
}

/// The process's value for `source`.
fn process_value(source: Source<'_>) -> Option<String> {
    match source {
        Source::Property(name) => crate::system_property(name),
        Source::Variable(name) => std::env::var(name).ok(),
    }
}

/// The profiles in effect: the active ones, else the default ones (see the module's doc).
pub fn profiles_in_effect() -> Vec<String> {
    profiles_in_effect_given(process_value)
}

fn profiles_in_effect_given(values: impl Fn(Source<'_>) -> Option<String>) -> Vec<String> {
    let active = active_profiles(&values);
    if active.is_empty() {
        default_profiles(&values)
    } else {
        active
    }
}

/// The active profiles: `spring.profiles.active`, else `SPRING_PROFILES_ACTIVE`; none when
/// neither lists one.
fn active_profiles(values: &impl Fn(Source<'_>) -> Option<String>) -> Vec<String> {
    listed(values, "spring.profiles.active", "SPRING_PROFILES_ACTIVE").unwrap_or_default()
}

/// The default profiles: `spring.profiles.default`, else `SPRING_PROFILES_DEFAULT`, else
/// Spring's own, `default`.
fn default_profiles(values: &impl Fn(Source<'_>) -> Option<String>) -> Vec<String> {
    listed(values, "spring.profiles.default", "SPRING_PROFILES_DEFAULT")
        .unwrap_or_else(|| vec!["default".to_string()])
}

fn listed(
    values: &impl Fn(Source<'_>) -> Option<String>,
    property: &str,
    variable: &str,
) -> Option<Vec<String>> {
    values(Source::Property(property))
        .or_else(|| values(Source::Variable(variable)))
        .map(|list| profile_list(&list))
        .filter(|profiles| !profiles.is_empty())
}

/// A comma-separated profile list as Spring keeps it: every blank removed, each profile once
/// (the first time it is listed), empty ones left out (where Spring refuses the list).
fn profile_list(list: &str) -> Vec<String> {
    let mut profiles: Vec<String> = Vec::new();
    for profile in list.split(',') {
        let profile: String = profile
            .chars()
            .filter(|&c| !java_is_whitespace(c))
            .collect();
        if !profile.is_empty() && !profiles.contains(&profile) {
            profiles.push(profile);
        }
    }
    profiles
}

/// Java's `String.trim`: the characters up to U+0020 cut from both ends.
fn java_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c <= ' ')
}

/// Java's `Character.isWhitespace`, which Spring's text checks use: the Unicode separators but
/// the non-breaking ones, and the ASCII controls for tab to carriage return and U+001C–U+001F.
fn java_is_whitespace(c: char) -> bool {
    matches!(c, '\t'..='\r' | '\u{1c}'..='\u{1f}')
        || (c.is_whitespace() && !matches!(c, '\u{85}' | '\u{a0}' | '\u{2007}' | '\u{202f}'))
}

/// `${spring:key}`, log4j-spring-boot's lookup, from the same stand-in for the Spring
/// environment: `profiles.active` and `profiles.default` (any case) give the profiles joined
/// by commas, or one of them as `profiles.active[1]`; any other key is the l4rs system property
/// of that name, else the environment variable Spring Boot binds to it
/// (`spring.application.name` → `SPRING_APPLICATION_NAME`). `Err` carries log4j2's warning for
/// an index out of range or too long to read; the variable then stays unresolved.
pub fn lookup(key: &str) -> Result<Option<String>, String> {
    lookup_given(key, process_value)
}

fn lookup_given(
    key: &str,
    values: impl Fn(Source<'_>) -> Option<String>,
) -> Result<Option<String>, String> {
    let lower = key.to_lowercase();
    for (name, kind) in [
        ("profiles.active", "active"),
        ("profiles.default", "default"),
    ] {
        if !lower.starts_with(name) {
            continue;
        }
        let profiles = if kind == "active" {
            active_profiles(&values)
        } else {
            default_profiles(&values)
        };
        return match profiles.as_slice() {
            [] => Ok(None),
            [only] => Ok(Some(only.clone())),
            _ => match indexed(key, name) {
                None => Ok(Some(profiles.join(","))),
                Some(Ok(index)) if index < profiles.len() => Ok(Some(profiles[index].clone())),
                Some(Ok(index)) => Err(format!(
                    "Index out of bounds for Spring {kind} profiles: {index}"
                )),
                Some(Err(digits)) => Err(format!("Unable to parse {digits} as integer value")),
            },
        };
    }
    if let Some(value) = values(Source::Property(key)) {
        return Ok(Some(value));
    }
    // Spring's names for a property in the environment: as written, with `.`, `-` or both as
    // `_`, each also in upper case; then Spring Boot's binding.
    let replaced = [
        key.to_string(),
        key.replace('.', "_"),
        key.replace('-', "_"),
        key.replace(['.', '-'], "_"),
    ];
    let candidates = replaced
        .iter()
        .cloned()
        .chain(replaced.iter().map(|name| name.to_ascii_uppercase()))
        .chain(std::iter::once(bound_variable(key)));
    for name in candidates {
        if let Some(value) = values(Source::Variable(&name)) {
            return Ok(Some(value));
        }
    }
    Ok(None)
}

/// The index in `key` when it is `name[digits]`, the name in the case it is written in
/// (matched case-sensitively, as log4j2's pattern is): `Err` with the digits when they do not
/// fit an `int`; `None` when `key` is not of that form.
fn indexed(key: &str, name: &str) -> Option<Result<usize, String>> {
    let digits = key
        .strip_prefix(name)?
        .strip_prefix('[')?
        .strip_suffix(']')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(
        digits
            .parse::<i32>()
            .map(|index| index as usize)
            .map_err(|_| digits.to_string()),
    )
}

/// The environment variable Spring Boot binds to a property: upper case, `.` as `_`, `-`
/// dropped, `[n]` as `_n` (`my-app.hosts[0]` → `MYAPP_HOSTS_0`).
fn bound_variable(key: &str) -> String {
    key.chars()
        .filter_map(|c| match c {
            '.' | '[' => Some('_'),
            '-' | ']' => None,
            c => Some(c.to_ascii_uppercase()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(names: &str, active: &[&str]) -> bool {
        let active: Vec<String> = active.iter().map(|p| p.to_string()).collect();
        parse_profiles(names)
            .unwrap_or_else(|e| panic!("{names}: {e}"))
            .holds(&active)
    }

    #[test]
    fn expressions_hold_as_in_spring() {
        assert!(holds("prod", &["prod"]));
        assert!(!holds("prod", &["dev"]));
        assert!(holds("dev | staging", &["staging"]));
        assert!(holds("dev, staging", &["staging"]), "a list: any of them");
        assert!(holds("prod & cloud", &["cloud", "prod"]));
        assert!(!holds("prod & cloud", &["prod"]));
        assert!(holds("!dev", &["prod"]));
        assert!(!holds("!dev", &["dev"]));
        assert!(holds("!(dev | test) & prod", &["prod"]));
        assert!(!holds("!(dev | test) & prod", &["prod", "test"]));
        assert!(holds("(eu | us) & !test", &["us"]));
        assert!(
            holds("a (b)", &["b"]),
            "neighbours without an operator: either"
        );
        assert!(
            holds("(a | b", &["b"]),
            "an unclosed parenthesis ends with the text"
        );
        assert!(holds("two words", &["two words"]));
    }

    #[test]
    fn malformed_expressions_are_refused_in_springs_words() {
        for (names, message) in [
            ("a & b | c", "Malformed profile expression [a & b | c]"),
            ("!", "Malformed profile expression [!]"),
            ("()", "Malformed profile expression [()]"),
            ("&", "Malformed profile expression [&]"),
            ("a,", "Invalid profile expression []: must contain text"),
            ("", "Invalid profile expression []: must contain text"),
        ] {
            let error = parse_profiles(names).expect_err(names);
            assert_eq!(error.to_string(), message, "{names}");
        }
        assert!(parse_profiles("(a & b) | c").is_ok());
    }

    /// A stand-in environment with these properties and variables.
    fn values<'a>(
        properties: &'a [(&str, &str)],
        variables: &'a [(&str, &str)],
    ) -> impl Fn(Source<'_>) -> Option<String> + 'a {
        move |source| {
            let (list, name) = match source {
                Source::Property(name) => (properties, name),
                Source::Variable(name) => (variables, name),
            };
            list.iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.to_string())
        }
    }

    #[test]
    fn the_active_profiles_come_before_the_default_ones() {
        assert_eq!(profiles_in_effect_given(values(&[], &[])), ["default"]);
        let defaults = [("SPRING_PROFILES_DEFAULT", "fallback")];
        assert_eq!(
            profiles_in_effect_given(values(&[], &defaults)),
            ["fallback"]
        );
        let active = [("spring.profiles.active", "prod, eu")];
        assert_eq!(
            profiles_in_effect_given(values(&active, &defaults)),
            ["prod", "eu"]
        );
        let variable = [("SPRING_PROFILES_ACTIVE", "staging")];
        assert_eq!(
            profiles_in_effect_given(values(&[], &variable)),
            ["staging"]
        );
        assert_eq!(
            profiles_in_effect_given(values(&active, &variable)),
            ["prod", "eu"],
            "the property comes first"
        );
        let empty = [("spring.profiles.active", " , ")];
        assert_eq!(
            profiles_in_effect_given(values(&empty, &defaults)),
            ["fallback"],
            "an empty list is none"
        );
    }

    #[test]
    fn the_lookup_gives_profiles_and_properties_as_springs_does() {
        let properties = [
            ("spring.profiles.active", "prod,eu"),
            ("app.name", "orders"),
        ];
        let variables = [
            ("SPRING_APPLICATION_NAME", "billing"),
            ("MYAPP_HOSTS_0", "h0"),
            ("server_port", "8080"),
        ];
        let look = |key: &str| lookup_given(key, values(&properties, &variables));
        assert_eq!(look("profiles.active"), Ok(Some("prod,eu".to_string())));
        assert_eq!(look("Profiles.Active"), Ok(Some("prod,eu".to_string())));
        assert_eq!(look("profiles.active[1]"), Ok(Some("eu".to_string())));
        assert_eq!(
            look("profiles.active[2]"),
            Err("Index out of bounds for Spring active profiles: 2".to_string())
        );
        assert_eq!(
            look("profiles.active[99999999999]"),
            Err("Unable to parse 99999999999 as integer value".to_string())
        );
        assert_eq!(look("profiles.default"), Ok(Some("default".to_string())));
        assert_eq!(
            look("profiles.default[5]"),
            Ok(Some("default".to_string())),
            "one profile: the index is not read"
        );
        assert_eq!(look("app.name"), Ok(Some("orders".to_string())));
        assert_eq!(
            look("spring.application.name"),
            Ok(Some("billing".to_string()))
        );
        assert_eq!(look("my-app.hosts[0]"), Ok(Some("h0".to_string())));
        assert_eq!(look("server.port"), Ok(Some("8080".to_string())));
        let repeated = [("spring.profiles.active", "prod,prod,eu")];
        let look = |key: &str| lookup_given(key, values(&repeated, &[]));
        assert_eq!(look("profiles.active"), Ok(Some("prod,eu".to_string())));
        assert_eq!(look("profiles.active[1]"), Ok(Some("eu".to_string())));
        let legacy = [("MY_APP_HOSTS_0", "legacy")];
        let look = |key: &str| lookup_given(key, values(&[], &legacy));
        assert_eq!(look("my-app.hosts_0"), Ok(Some("legacy".to_string())));
        assert_eq!(look("missing.key"), Ok(None));
        let none = |key: &str| lookup_given(key, values(&[], &[]));
        assert_eq!(none("profiles.active"), Ok(None), "no active profile");
    }

    #[test]
    fn profile_lists_lose_their_blanks_and_repeats() {
        assert_eq!(profile_list(" prod , eu west,,prod"), ["prod", "euwest"]);
        // Java's whitespace: not the non-breaking space, but the file separators.
        assert_eq!(profile_list("a\u{a0}b,c\u{1c}d"), ["a\u{a0}b", "cd"]);
    }

    #[test]
    fn tokens_are_trimmed_as_java_trims_them() {
        assert!(
            holds("prod\u{1}", &["prod"]),
            "a control character is trimmed"
        );
        assert!(
            !holds("prod\u{a0}", &["prod"]),
            "a non-breaking space is not"
        );
        assert_eq!(
            parse_profiles("\u{2003}")
                .expect_err("only a space")
                .to_string(),
            "Invalid profile expression [\u{2003}]: must contain text"
        );
    }
}
