/// The conditional fields of a request (RFC 9110 §13.1), as received.
///
/// Not copyable, like the ``RequestFields`` it is part of: read in place,
/// never copied on the request path.
struct RequestConditions: ~Copyable {
    /// Nil until a conditional field is received, as in nearly every
    /// request: destroying an absent `Fields` is one test, where four
    /// optional strings are four calls to release them, nil or not.
    private var fields: Fields?

    struct Fields {
        var ifMatch: String?
        var ifNoneMatch: String?
        var ifModifiedSince: String?
        var ifUnmodifiedSince: String?
    }

    init() {}

    /// Whether the request has any precondition: without one, the answer
    /// is the 200 and the representation's entity tag need not be read.
    var isPresent: Bool { fields != nil }

    /// Adds one received line of `field`. A field received on several
    /// lines is one comma-separated list (RFC 9110 §5.3). The entity-tag
    /// fields are lists; a date field that becomes one no longer parses as
    /// a date, and is then ignored as the RFC requires for a value with
    /// more than one member.
    mutating func add(_ value: String, to field: WritableKeyPath<Fields, String?>) {
        var updated = fields ?? Fields()
        updated[keyPath: field] = updated[keyPath: field].map { $0 + ", " + value } ?? value
        fields = updated
    }

    /// What the preconditions make of a GET or HEAD on a served file, in
    /// the order of RFC 9110 §13.2.2. `If-Range` only qualifies a `Range`,
    /// which the origin does not implement, so it is ignored with it.
    func evaluate(for representation: borrowing FileResponses.Representation, lastModified: Int) -> Outcome {
        guard let fields else { return .send }
        // 1–2: the client's copy must be current (strong comparison).
        if let ifMatch = fields.ifMatch {
            guard representation.etag.isNamed(by: ifMatch, comparison: .strong) else { return .failed }
        } else if let ifUnmodifiedSince = fields.ifUnmodifiedSince, let date = HTTPDate.parse(ifUnmodifiedSince),
            lastModified > date
        {
            return .failed
        }
        // 3: If-None-Match decides alone when present, even unparsable:
        // If-Modified-Since is then ignored (§13.1.3).
        if let ifNoneMatch = fields.ifNoneMatch {
            return representation.etag.isNamed(by: ifNoneMatch, comparison: .weak) ? .notModified : .send
        }
        // 4: an invalid date is ignored, never read as "not modified".
        if let ifModifiedSince = fields.ifModifiedSince, let date = HTTPDate.parse(ifModifiedSince),
            lastModified <= date
        {
            return .notModified
        }
        return .send
    }

    enum Outcome: Equatable {
        /// 200 with the representation.
        case send
        /// 304: the client's copy is current.
        case notModified
        /// 412: `If-Match` or `If-Unmodified-Since` is false.
        case failed
    }
}
