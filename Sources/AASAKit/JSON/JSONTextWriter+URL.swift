extension JSONTextWriter {
    /// `url`'s ``AASAURL/description`` as a JSON string, written from the
    /// URL's parts: a list of 100,000 URLs made a string of each to copy it.
    public mutating func string(of url: AASAURL) {
        raw("\"")
        url.scheme.withLentUTF8 { contents(utf8: $0) }
        raw("://")
        url.host.withLentUTF8 { contents(utf8: $0) }
        if let port = url.port {
            raw(":")
            integer(port)
        }
        url.tail.withUTF8 { contents(utf8: $0) }
        raw("\"")
    }
}
