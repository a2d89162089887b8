//! Whether this machine is a VM that reports the memory it frees to its host.
//!
//! A virtio balloon with the free page reporting feature tells the host which blocks of guest
//! memory are free, and the host takes them back. On the 2-core Intel Xeon VM where this was
//! traced, that work paused both cores together, for up to 35 ms once every 2 s while both
//! were busy, after something freed gigabytes at once: deleting a benchmark row's files (their
//! page cache goes free) or dropping the page cache. With reporting switched off for a trial,
//! the same deletion paused nothing (docs/benchmarks.md, "Pauses after deletions: free page
//! reporting"). The bench reports it so that a run's reader knows its windows may hold such
//! pauses, and why the latency rows wait for a quiet machine after deleting files.

use std::path::Path;

/// The virtio device ID of a memory balloon.
const BALLOON_DEVICE: &str = "0x0005";
/// `VIRTIO_BALLOON_F_REPORTING`, the feature bit of free page reporting.
const REPORTING_FEATURE_BIT: usize = 5;

/// Whether free page reporting is on, read under `root` (normally `/`): a virtio balloon bound
/// to its driver has the reporting feature, and the kernel reports blocks of an order that
/// exists (root can raise `page_reporting_order` past the largest, which switches reporting
/// off while the feature stays). `None` when there is no virtio bus to read (not a virtio VM,
/// or not Linux).
pub fn free_page_reporting(root: &Path) -> Option<bool> {
    let devices = std::fs::read_dir(root.join("sys/bus/virtio/devices")).ok()?;
    let balloon_reports = devices.flatten().any(|device| {
        let path = device.path();
        let read = |name: &str| std::fs::read_to_string(path.join(name)).unwrap_or_default();
        // `features` holds one character per feature bit, bit 0 first. It is left as it was
        // when a driver unbinds, so only a bound device's line says what is in use.
        read("device").trim() == BALLOON_DEVICE
            && path.join("driver").exists()
            && read("features").as_bytes().get(REPORTING_FEATURE_BIT) == Some(&b'1')
    });
    Some(balloon_reports && reported_order_exists(root))
}

/// Whether `page_reporting_order` names a block order the buddy allocator has: its free lists,
/// one column per order from 0, are the counts on each line of `/proc/buddyinfo`. When either
/// cannot be read, the kernel's default (an order that exists) is assumed.
fn reported_order_exists(root: &Path) -> bool {
    let read = |path: &str| std::fs::read_to_string(root.join(path)).ok();
    let order = read("sys/module/page_reporting/parameters/page_reporting_order")
        .and_then(|text| text.trim().parse::<usize>().ok());
    // "Node 0, zone   Normal   7394   3673 …": the counts follow the zone's name.
    let orders = read("proc/buddyinfo").and_then(|text| {
        text.lines()
            .filter_map(|line| line.split_once("zone"))
            .map(|(_, rest)| rest.split_whitespace().skip(1).count())
            .max()
    });
    match (order, orders) {
        (Some(order), Some(orders)) => order < orders,
        _ => true,
    }
}

/// What a run's report says when [`free_page_reporting`] is on: what it can do to the windows.
pub const NOTE: &str = "this VM reports the memory it frees to its host (virtio free page \
reporting); on the VM where that was traced, freeing gigabytes (deleting a row's files) paused \
both cores for up to 35 ms every 2 s while both were busy, see docs/benchmarks.md";

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_test_support::TempDir;
    use std::fs;

    /// The buddy allocator's free lists of a VM with orders 0 to 10.
    const BUDDYINFO: &str = "Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n\
        Node 0, zone   Normal   7394   3673   4871   3123   2514    974    265   1960   1423   1290   3294 \n";

    /// A root with `/proc/buddyinfo` and one virtio device, `bound` to a driver or not.
    fn root_with_device(device: &str, features: &str, bound: bool) -> TempDir {
        let root = TempDir::new("bench-page-reporting");
        let path = root.path().join("sys/bus/virtio/devices/virtio0");
        fs::create_dir_all(&path).unwrap();
        fs::write(path.join("device"), format!("{device}\n")).unwrap();
        fs::write(path.join("features"), format!("{features}\n")).unwrap();
        if bound {
            fs::create_dir(path.join("driver")).unwrap();
        }
        fs::create_dir_all(root.path().join("proc")).unwrap();
        fs::write(root.path().join("proc/buddyinfo"), BUDDYINFO).unwrap();
        root
    }

    fn set_reporting_order(root: &TempDir, order: &str) {
        let parameters = root.path().join("sys/module/page_reporting/parameters");
        fs::create_dir_all(&parameters).unwrap();
        fs::write(parameters.join("page_reporting_order"), order).unwrap();
    }

    const REPORTING: &str = "0110010100000000";

    #[test]
    fn a_bound_balloon_with_the_reporting_bit_reports() {
        let root = root_with_device("0x0005", REPORTING, true);
        assert_eq!(free_page_reporting(root.path()), Some(true));
        set_reporting_order(&root, "9\n");
        assert_eq!(free_page_reporting(root.path()), Some(true));
        set_reporting_order(&root, "10\n");
        assert_eq!(free_page_reporting(root.path()), Some(true));
    }

    #[test]
    fn an_order_past_the_largest_block_switches_reporting_off() {
        let root = root_with_device("0x0005", REPORTING, true);
        set_reporting_order(&root, "11\n");
        assert_eq!(free_page_reporting(root.path()), Some(false));
    }

    #[test]
    fn a_balloon_without_the_bit_or_without_a_driver_does_not() {
        let without_bit = root_with_device("0x0005", "0110000100000000", true);
        assert_eq!(free_page_reporting(without_bit.path()), Some(false));
        let unbound = root_with_device("0x0005", REPORTING, false);
        assert_eq!(free_page_reporting(unbound.path()), Some(false));
    }

    #[test]
    fn another_device_with_bit_five_set_is_not_a_balloon() {
        // virtio-blk's bit 5 means something else entirely (a read-only disk).
        let root = root_with_device("0x0002", "0010011001100100", true);
        assert_eq!(free_page_reporting(root.path()), Some(false));
    }

    #[test]
    fn no_virtio_bus_is_no_answer() {
        let root = TempDir::new("bench-page-reporting-none");
        assert_eq!(free_page_reporting(root.path()), None);
    }
}
