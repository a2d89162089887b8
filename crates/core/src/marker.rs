//! Markers: named, global tags with parents, as log4j2's `MarkerManager` keeps them.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock, RwLock};

/// A named marker. Markers are global: [`Marker::get`] returns the same marker for the same
/// name everywhere in the process, and parents added to it are seen by every holder.
pub struct Marker {
    name: String,
    parents: RwLock<Vec<Arc<Marker>>>,
}

fn registry() -> &'static RwLock<HashMap<String, Arc<Marker>>> {
    static MARKERS: OnceLock<RwLock<HashMap<String, Arc<Marker>>>> = OnceLock::new();
    MARKERS.get_or_init(|| RwLock::new(HashMap::new()))
}

impl Marker {
    /// The marker with this name, created on first use.
    pub fn get(name: &str) -> Arc<Marker> {
        if let Some(marker) = registry()
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
        {
            return Arc::clone(marker);
        }
        let mut markers = registry().write().unwrap_or_else(|e| e.into_inner());
        Arc::clone(markers.entry(name.to_string()).or_insert_with(|| {
            Arc::new(Marker {
                name: name.to_string(),
                parents: RwLock::new(Vec::new()),
            })
        }))
    }

    /// The marker's name (`%markerSimpleName`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Replaces this marker's parents.
    pub fn set_parents(&self, parents: Vec<Arc<Marker>>) {
        *self.parents.write().unwrap_or_else(|e| e.into_inner()) = parents;
    }

    /// Adds a parent if it is not already one.
    pub fn add_parent(&self, parent: Arc<Marker>) {
        let mut parents = self.parents.write().unwrap_or_else(|e| e.into_inner());
        if !parents.iter().any(|p| p.name == parent.name) {
            parents.push(parent);
        }
    }

    /// This marker's direct parents.
    pub fn parents(&self) -> Vec<Arc<Marker>> {
        self.parents
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Runs `f` on this marker's direct parents without copying them (layouts walk the parent
    /// tree per event; [`Marker::parents`] would allocate).
    pub fn with_parents<R>(&self, f: impl FnOnce(&[Arc<Marker>]) -> R) -> R {
        f(&self.parents.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// True when this marker is `name` or descends from it (log4j2's `isInstanceOf`).
    pub fn is_instance_of(&self, name: &str) -> bool {
        if self.name == name {
            return true;
        }
        self.parents
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|parent| parent.is_instance_of(name))
    }

    /// Writes log4j2's `Marker.toString()`: `NAME[ PARENT1, PARENT2[ GRANDPARENT ] ]`.
    pub fn write_full(&self, out: &mut String) {
        out.push_str(&self.name);
        let parents = self.parents.read().unwrap_or_else(|e| e.into_inner());
        if !parents.is_empty() {
            out.push_str("[ ");
            for (index, parent) in parents.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                parent.write_full(out);
            }
            out.push_str(" ]");
        }
    }
}

impl fmt::Display for Marker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        self.write_full(&mut text);
        f.write_str(&text)
    }
}

impl fmt::Debug for Marker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Marker({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_parents_sees_the_parents_in_order() {
        let child = Marker::get("CORE_TEST_WITH_PARENTS");
        assert_eq!(child.with_parents(<[_]>::len), 0);
        child.set_parents(vec![
            Marker::get("CORE_TEST_WP_A"),
            Marker::get("CORE_TEST_WP_B"),
        ]);
        let names = child.with_parents(|parents| {
            parents
                .iter()
                .map(|p| p.name().to_string())
                .collect::<Vec<_>>()
        });
        assert_eq!(names, ["CORE_TEST_WP_A", "CORE_TEST_WP_B"]);
    }

    #[test]
    fn markers_are_global_and_print_their_ancestry() {
        let child = Marker::get("CORE_TEST_CHILD");
        child.set_parents(vec![
            Marker::get("CORE_TEST_P1"),
            Marker::get("CORE_TEST_P2"),
        ]);
        Marker::get("CORE_TEST_P2").set_parents(vec![Marker::get("CORE_TEST_GP")]);
        assert!(Marker::get("CORE_TEST_CHILD").is_instance_of("CORE_TEST_GP"));
        assert!(!Marker::get("CORE_TEST_P1").is_instance_of("CORE_TEST_CHILD"));
        assert_eq!(
            child.to_string(),
            "CORE_TEST_CHILD[ CORE_TEST_P1, CORE_TEST_P2[ CORE_TEST_GP ] ]"
        );
    }
}
