//! Reading a resolver's options (`{"$resolver": "timestamp", "pattern": {"format": …}}`), with
//! errors that name the option, what it should be and where the resolver is in its template.

use super::reader::Value;

/// One resolver's configuration object and its place in the template.
pub(crate) struct Options<'a> {
    value: &'a Value,
    /// The resolver's JSON pointer in its template (`/labels`), for messages.
    pub path: &'a str,
}

impl<'a> Options<'a> {
    /// The options of the resolver object `value` found at `path`.
    pub(super) fn new(value: &'a Value, path: &'a str) -> Options<'a> {
        Options { value, path }
    }

    /// The resolver's name (`$resolver`).
    pub(super) fn name(&self) -> Result<&'a str, String> {
        match self.value.get("$resolver") {
            Some(Value::String(name)) => Ok(name),
            other => Err(format!(
                "invalid resolver name: {} (at {}); `$resolver` takes a resolver name such as \"message\"",
                other.map_or_else(|| "null".to_string(), json),
                self.path
            )),
        }
    }

    /// The value at `keys` (nested objects), if present and not `null`.
    pub(super) fn get(&self, keys: &[&str]) -> Option<&'a Value> {
        let mut current = self.value;
        for key in keys {
            current = current.get(key)?;
        }
        (*current != Value::Null).then_some(current)
    }

    /// An error about the option at `keys`.
    pub(super) fn invalid(&self, keys: &[&str], expected: &str) -> String {
        let shown = self.get(keys).map_or_else(|| "null".to_string(), json);
        format!(
            "invalid {} option of the {} resolver: {shown} (at {}); it takes {expected}",
            keys.join("."),
            self.name().unwrap_or("?"),
            self.path
        )
    }

    /// A string option.
    pub(super) fn string(&self, keys: &[&str]) -> Result<Option<&'a str>, String> {
        match self.get(keys) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.invalid(keys, "a string")),
        }
    }

    /// A boolean option.
    pub(super) fn boolean(&self, keys: &[&str]) -> Result<Option<bool>, String> {
        match self.get(keys) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(self.invalid(keys, "true or false")),
        }
    }

    /// An integer option.
    pub(super) fn integer(&self, keys: &[&str]) -> Result<Option<i64>, String> {
        match self.get(keys) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .parse()
                .map(Some)
                .map_err(|_| self.invalid(keys, "an integer")),
            Some(_) => Err(self.invalid(keys, "an integer")),
        }
    }

    /// A list-of-strings option.
    pub(super) fn strings(&self, keys: &[&str]) -> Result<Vec<String>, String> {
        match self.get(keys) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s.clone()),
                    _ => Err(self.invalid(keys, "a list of strings")),
                })
                .collect(),
            Some(_) => Err(self.invalid(keys, "a list of strings")),
        }
    }

    /// The `field` option, which must be one of `fields`.
    pub(super) fn field(&self, fields: &[&'static str]) -> Result<&'static str, String> {
        self.one_of(&["field"], fields)
    }

    /// A string option that must be one of `allowed`.
    pub(super) fn one_of(
        &self,
        keys: &[&str],
        allowed: &[&'static str],
    ) -> Result<&'static str, String> {
        let given = self.string(keys)?;
        allowed
            .iter()
            .find(|a| Some(**a) == given)
            .copied()
            .ok_or_else(|| {
                let choices: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
                self.invalid(keys, &format!("one of {}", choices.join(", ")))
            })
    }
}

fn json(value: &Value) -> String {
    let mut out = String::new();
    value.write_json(&mut out);
    out
}
