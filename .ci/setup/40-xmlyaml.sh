# XmlLayout's oracle scenarios (490-499): log4j2's XmlLayout writes through Jackson's XML module,
# which needs a Stax2 writer (Woodstox, a dependency of jackson-dataformat-xml in every Maven
# build). crates/conformance/tests/common/mod.rs puts it on the oracle's boot class path.
if ! [ -r /usr/share/java/woodstox-core.jar ] || ! [ -r /usr/share/java/stax2-api.jar ]; then
    ci_apt_install libwoodstox-java libstax2-api-java
fi
