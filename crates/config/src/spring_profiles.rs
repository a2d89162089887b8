//! Spring's profiles, for log4j2's `<SpringProfile name="…">` arbiter: the profile expressions
//! Spring's `Profiles.of` reads (`prod`, `!dev`, `prod & cloud`, `(eu | us) & !test`, several
//! separated by commas), and the profiles a Rust program has active.
//!
//! A Rust program has no Spring environment. What a Spring Boot service is usually given in
//! its deployment, `SPRING_PROFILES_ACTIVE`, stands in for it: the l4rs system property
//! `spring.profiles.active`, else that variable, lists the active profiles (commas, blanks
//! ignored); without any, `spring.profiles.default` / `SPRING_PROFILES_DEFAULT` does, or the
//! profile `default`, as in Spring.

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
        .map(|expression| parse_expression(expression.trim()))
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
    if expression.trim().is_empty() {
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
        .map(str::trim)
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

/// The profiles in effect: the active ones, else the default ones (see the module's doc).
pub fn profiles_in_effect() -> Vec<String> {
    profiles_in_effect_given(|property, variable| {
        crate::system_property(property).or_else(|| std::env::var(variable).ok())
    })
}

/// [`profiles_in_effect`] with `lookup` giving the value of a property (first argument) or,
/// without it, of the environment variable (second argument).
fn profiles_in_effect_given(lookup: impl Fn(&str, &str) -> Option<String>) -> Vec<String> {
    let listed = |property: &str, variable: &str| {
        lookup(property, variable)
            .map(|list| profile_list(&list))
            .filter(|profiles| !profiles.is_empty())
    };
    listed("spring.profiles.active", "SPRING_PROFILES_ACTIVE")
        .or_else(|| listed("spring.profiles.default", "SPRING_PROFILES_DEFAULT"))
        .unwrap_or_else(|| vec!["default".to_string()])
}

/// A comma-separated profile list, every blank removed as Spring removes it.
fn profile_list(list: &str) -> Vec<String> {
    list.split(',')
        .map(|profile| profile.split_whitespace().collect::<String>())
        .filter(|profile| !profile.is_empty())
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

    #[test]
    fn the_active_profiles_come_before_the_default_ones() {
        let given = |active: Option<&str>, default: Option<&str>| {
            profiles_in_effect_given(|property, variable| {
                let value = match property {
                    "spring.profiles.active" => active,
                    _ => default,
                };
                assert!(variable.starts_with("SPRING_PROFILES_"), "{variable}");
                value.map(str::to_string)
            })
        };
        assert_eq!(given(None, None), ["default"]);
        assert_eq!(given(None, Some("fallback")), ["fallback"]);
        assert_eq!(given(Some("prod, eu"), Some("fallback")), ["prod", "eu"]);
        assert_eq!(
            given(Some(" , "), Some("fallback")),
            ["fallback"],
            "an empty list is none"
        );
    }

    #[test]
    fn profile_lists_lose_their_blanks() {
        assert_eq!(profile_list(" prod , eu west,,"), ["prod", "euwest"]);
    }
}
