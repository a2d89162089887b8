# The oracle (real log4j2 2.19 on Java 17) that the conformance test compares against, with
# the Jackson and commons-csv jars log4j2's JsonLayout, XmlLayout, YamlLayout and CSV layouts load.
if ! [ -r /usr/share/java/log4j-core.jar ] || ! [ -r /usr/share/java/disruptor.jar ] \
    || ! [ -r /usr/share/java/jackson-databind.jar ] || ! [ -r /usr/share/java/commons-csv.jar ] \
    || ! command -v javac >/dev/null; then
    ci_apt_install liblog4j2-java libdisruptor-java default-jdk-headless python3 \
        libjackson2-databind-java libjackson2-dataformat-xml-java libjackson2-dataformat-yaml \
        libcommons-csv-java
fi
