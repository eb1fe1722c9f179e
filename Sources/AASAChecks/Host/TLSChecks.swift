import Foundation

/// The `tls.trusted` and `tls.expiry` checks, from the certificate a fetch
/// saw (or the reason it was refused).
struct TLSChecks {
    var fetcher: HTTPFetcher.Configuration
    var now: Date
    var expiryWarningDays: Int

    /// After a successful fetch: the chain was trusted and names the host,
    /// unless verification was off or there was no TLS at all.
    func addPassed(_ certificate: PeerCertificate?, target: HostTarget, to checks: inout CheckList) {
        guard target.isHTTPS else {
            addPlainHTTP(target, to: &checks)
            return
        }
        if fetcher.insecure {
            let names = certificate.map { certificate in
                certificate.covers(host: target.host)
                    ? ""
                    : "; note: the certificate is for \(certificate.names.joined(separator: ", ")), not \(target.host)"
            }
            checks.add("tls.trusted", .skip, "not verified (--insecure)\(names ?? "")")
        } else if let certificate {
            let via = fetcher.caFile.map { " (with --ca-file \($0))" } ?? ""
            checks.add(
                "tls.trusted",
                .pass,
                "certificate chain trusted for \(target.host)\(via), issued by \(certificate.issuer)"
            )
        } else {
            // A pass says the names were checked: without a certificate they were not.
            checks.add("tls.trusted", .fail, CertificateProblem.notPresentedMessage)
        }
        guard let certificate else {
            checks.add("tls.expiry", .skip, "the certificate could not be read")
            return
        }
        addExpiry(certificate, to: &checks)
    }

    /// After TLS refused the connection.
    func addFailed(_ failure: TLSFailure, certificate: PeerCertificate?, to checks: inout CheckList) {
        let presented =
            certificate.map { certificate in
                certificate.isSelfIssued
                    ? " The host presents \(certificate.subject), self-signed."
                    : " The host presents \(certificate.subject), issued by \(certificate.issuer)."
            } ?? ""
        checks.add("tls.trusted", .fail, failure.message + (failure.problems.isEmpty ? "" : "." + presented))
        if let certificate { addExpiry(certificate, to: &checks) }
    }

    /// Apple fetches only over HTTPS. Plain HTTP through `--base-url` (or to
    /// a local name) is a local test of the files, so TLS is simply not
    /// checked; an `http://` URL of a public host (even `--resolve`d)
    /// checks something Apple never uses, and must not read as a pass.
    private func addPlainHTTP(_ target: HostTarget, to checks: inout CheckList) {
        if target.viaBaseURL || target.isLocal {
            let reason = "plain HTTP to \(target.connectionDescription ?? target.origin); Apple only fetches over HTTPS"
            checks.add("tls.trusted", .skip, reason)
            checks.add("tls.expiry", .skip, reason)
        } else {
            checks.add(
                "tls.trusted",
                .fail,
                "checked over plain HTTP, but Apple only fetches https://\(target.host)\(HostTarget.wellKnownPath); check https://\(target.host) (or use --base-url for a local server)"
            )
            checks.add("tls.expiry", .skip, "no TLS over plain HTTP")
        }
    }

    private func addExpiry(_ certificate: PeerCertificate, to checks: inout CheckList) {
        let days = certificate.daysUntilExpiry(from: now)
        let date = certificate.notValidAfter.formatted(.iso8601.year().month().day())
        if days < 0 || certificate.notValidAfter < now {
            checks.add("tls.expiry", .fail, "certificate expired on \(date)")
        } else if certificate.notValidBefore > now {
            let start = certificate.notValidBefore.formatted(.iso8601.year().month().day())
            checks.add("tls.expiry", .fail, "certificate not valid before \(start)")
        } else if days < expiryWarningDays {
            checks.add("tls.expiry", .warn, "certificate expires on \(date), in \(days) days")
        } else {
            checks.add("tls.expiry", .pass, "certificate valid until \(date) (\(days) days)")
        }
    }
}
