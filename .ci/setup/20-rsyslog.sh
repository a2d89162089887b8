# A real rsyslog for crates/integration-tests/tests/rsyslog.rs (plain TCP, UDP and a GnuTLS input), and the openssl CLI
# that makes the test certificates and PKCS12 stores. The tests start and stop rsyslogd
# themselves on 127.0.0.1; the package's own service is not needed.
if ! [ -x /usr/sbin/rsyslogd ] || ! [ -r /usr/lib/x86_64-linux-gnu/rsyslog/lmnsd_gtls.so ] \
    || ! command -v openssl >/dev/null; then
    ci_apt_install rsyslog rsyslog-gnutls rsyslog-openssl openssl
fi
