//! Naming a `dyn Error` by its `Debug` output allocates nothing once the name was met, even on
//! a thread that met more names than it remembers (review finding: each such name was copied
//! into a new `String` on every conversion before being looked up).

use std::error::Error;
use std::fmt;

use l4rs_core::ThrowableRef;
use l4rs_test_support::allocations::{self, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

/// An error whose `Debug` output starts with the name it is given, as a derived `Debug` starts
/// with its type's name.
struct Named(&'static str);

impl fmt::Debug for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("named")
    }
}

impl Error for Named {}

fn type_name(error: &Named) -> &'static str {
    match ThrowableRef::from_dyn_error(error) {
        ThrowableRef::Error { type_name, .. } => type_name,
        other => panic!("{other:?}"),
    }
}

#[test]
fn names_met_before_are_found_without_allocating() {
    // More names than a thread remembers (64), so most are looked up in the process's set.
    let errors: Vec<Named> = (0..200)
        .map(|i| Named(Box::leak(format!("Kind{i}").into_boxed_str())))
        .collect();
    for error in &errors {
        assert_eq!(type_name(error), error.0);
    }
    let allocations = allocations::allocations_during(|| {
        for error in &errors {
            std::hint::black_box(type_name(error));
        }
    });
    assert_eq!(allocations, 0, "allocations naming {} errors", errors.len());
}
