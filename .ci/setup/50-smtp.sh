# The SMTP appender's tests (crates/conformance/tests/smtp_mail.rs, crates/integration-tests/
# tests/smtp.rs): aiosmtpd, the server they start on 127.0.0.1, and JavaMail with its activation
# framework, which log4j2's SmtpAppender sends through (crates/conformance/tests/common/mod.rs
# puts them on the oracle's boot class path).
if ! python3 -c 'import aiosmtpd' 2>/dev/null; then
    command -v pip >/dev/null || ci_apt_install python3-pip
    pip install --quiet aiosmtpd==1.4.6 \
        || pip install --quiet --break-system-packages aiosmtpd==1.4.6
fi
if ! [ -r /usr/share/java/javax.mail.jar ] || ! [ -r /usr/share/java/javax.activation.jar ]; then
    ci_apt_install libmail-java libactivation-java
fi
