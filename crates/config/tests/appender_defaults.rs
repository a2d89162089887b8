//! The three file appenders bound with nothing but their name and `fileName`: every attribute
//! takes log4j2's default (reference §b.1–§b.4), field by field.

use l4rs_config::model::{
    AppenderKind, AppenderSpec, FileSpec, MemoryMappedFileSpec, RandomAccessFileSpec,
};
use l4rs_config::{load_str, Configuration};

fn load() -> Configuration {
    let xml = r#"<Configuration><Appenders>
  <MemoryMappedFile name="M2" fileName="m2"/>
  <RandomAccessFile name="R2" fileName="r2"/>
  <File name="F2" fileName="f2"/>
</Appenders><Loggers><Root level="info">
  <AppenderRef ref="M2"/><AppenderRef ref="R2"/><AppenderRef ref="F2"/>
</Root></Loggers></Configuration>"#;
    load_str(xml, None).expect("well-formed")
}

/// The appender `name`, after checking what every appender without attributes or children
/// shares: `ignoreExceptions` true, the default layout, no filter.
fn bare<'a>(config: &'a Configuration, name: &str) -> &'a AppenderKind {
    let AppenderSpec {
        name: bound_name,
        ignore_exceptions,
        layout,
        filter,
        kind,
        position,
    } = config.appender(name).expect("appender bound");
    assert_eq!(bound_name, name);
    assert!(
        *ignore_exceptions,
        "{name}: ignoreExceptions defaults to true"
    );
    assert!(layout.is_none(), "{name}: {layout:?}");
    assert!(filter.is_none(), "{name}: {filter:?}");
    assert!(position.is_some(), "{name}: no position");
    kind
}

#[test]
fn omitted_attributes_take_log4j2_defaults() {
    let config = load();
    assert!(
        config.diagnostics.is_empty(),
        "nothing to report: {:?}",
        config.diagnostics
    );

    let AppenderKind::MemoryMappedFile(mmf) = bare(&config, "M2") else {
        panic!("M2 is not a MemoryMappedFile");
    };
    assert_eq!(
        mmf,
        &MemoryMappedFileSpec {
            file_name: "m2".to_string(),
            append: true,
            // Stored as written; log4j2 (and l4rs) build the appender without immediate flush.
            immediate_flush: true,
            region_length: 33_554_432,
        }
    );

    let AppenderKind::RandomAccessFile(raf) = bare(&config, "R2") else {
        panic!("R2 is not a RandomAccessFile");
    };
    assert_eq!(
        raf,
        &RandomAccessFileSpec {
            file_name: "r2".to_string(),
            append: true,
            immediate_flush: true,
            buffer_size: 262_144,
        }
    );

    let AppenderKind::File(file) = bare(&config, "F2") else {
        panic!("F2 is not a File");
    };
    assert_eq!(
        file,
        &FileSpec {
            file_name: "f2".to_string(),
            append: true,
            buffered_io: true,
            buffer_size: 8192,
            immediate_flush: true,
            locking: false,
            create_on_demand: false,
            file_permissions: None,
            file_owner: None,
            file_group: None,
        }
    );
}
