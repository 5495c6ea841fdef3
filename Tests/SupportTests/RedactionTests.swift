@testable import Support
import Foundation
import Testing

/// URLs are cut where the HTTP client cuts them, so no character a password may hold ends its user-info early.
struct RedactionTests {
    @Test(arguments: [
        ("http://user:p@ss-SECRETa1@127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
        ("see http://user:p ss-SECRETa2@127.0.0.1:8080/v1 now", "see http://127.0.0.1:8080/v1 now"),
        ("'http://user:p\"ss-SECRETa3@127.0.0.1:8080/v1'", "'http://127.0.0.1:8080/v1'"),
        ("http://user:p<ss-SECRETa4@host/x?key=SECRETa5#frag", "http://host/x"),
        ("HTTPS://Admin:SECRETa6@Example.com:443/v1 and http://127.0.0.1:1", "HTTPS://Example.com:443/v1 and http://127.0.0.1:1"),
        ("exec:det.py --endpoint=https://svc:SECRETa7@host/x --n 2", "exec:det.py --endpoint=https://host/x --n 2"),
        ("no url here, user@example.com", "no url here, user@example.com"),
        ("ftp://user:pw@host/x", "ftp://user:pw@host/x"),
        // A raw `/`, `?` or `#` in a password: the client refuses the URL; the refusal quoting it keeps none of it.
        ("'http://user:SECRETe1/tail@127.0.0.1:8080': refused", "'http://127.0.0.1:8080': refused"),
        ("http://user:SE?CRETe2@h:1/v1 and https://u:S#ECRETe3@h/x", "http://h:1/v1 and https://h/x"),
        ("https://registry.example/@scope/pkg", "https://registry.example/@scope/pkg"),
    ])
    func aURLLosesItsUserInfoQueryAndFragment(text: String, redacted: String) {
        #expect(Redaction.urls(in: text) == redacted)
    }

    /// The client reads `p@ss` as the password whole (the last `@` ends the user-info): every part is registered,
    /// so a text that cuts the URL elsewhere (a message quoting it in pieces) still loses it.
    @Test func everyCredentialOfAURLIsRegistered() {
        let url = "http://admin:p@ss word-SECRETb1@127.0.0.1:9/v1?token=SECRETb2"
        Redaction.registerCredentials(in: url)
        #expect(URL(string: url)?.password == "p%40ss%20word-SECRETb1")
        for text in ["password p@ss word-SECRETb1 rejected", "p%40ss%20word-SECRETb1", "token=SECRETb2 bad"] {
            let out = Redaction.secrets(in: text)
            #expect(!out.contains("SECRETb"), "\(out)")
        }
    }

    /// A refused URL's credentials are registered like a read one's, so a message that quotes them loses them.
    @Test func aRefusedURLsPasswordIsRegistered() {
        Redaction.registerCredentials(in: "http://user:SECRETe4/tail@127.0.0.1:8080")
        #expect(Redaction.secrets(in: "the password SECRETe4/tail was refused") == "the password <redacted> was refused")
    }

    /// An exec spec is shown by its program and a hash of its arguments, and run as written; a non-exec spec keeps
    /// its text with URL credentials redacted.
    @Test func aCommandSpecIsShownByALabelAndRunAsWritten() {
        let spec = "exec:python3 det.py --endpoint=https://svc:SECRETc1@host/x"
        let label = Redaction.label(ofCommand: spec)
        #expect(label.hasPrefix("exec:python3 #") && label.count == "exec:python3 #".count + 12, "\(label)")
        #expect(Redaction.command(for: label) == spec)
        #expect(Redaction.command(for: "builtin") == "builtin")
        #expect(Redaction.label(ofCommand: "apertium:http://u:SECRETc3@host:2737") == "apertium:http://host:2737")
        // Same arguments, same label: runs of one detector compare; other arguments, another label.
        #expect(Redaction.label(ofCommand: spec) == label && Redaction.label(ofCommand: spec + " --fast") != label)
        #expect(Redaction.label(ofCommand: "exec:/usr/bin/env") == "exec:env")
    }

    /// A bare credential flag anywhere on a command line is a secret wherever it turns up later.
    @Test(arguments: ["exec:det --api-key SECRETd1-key", "exec:det --token=SECRETd1-key", "exec:det --password 'SECRETd1-key'",
                      "exec:det --hf_token SECRETd1-key", "exec:det -x 1 --auth-token SECRETd1-key"])
    func aCredentialFlagsValueIsRedactedEverywhere(spec: String) {
        let label = Redaction.label(ofCommand: spec)
        #expect(!label.contains("SECRETd1"))
        #expect(Redaction.text("the child said SECRETd1-key back") == "the child said <redacted> back")
    }
}
