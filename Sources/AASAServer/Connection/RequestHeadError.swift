/// What the guard found wrong with a request line before the decoder saw it.
enum RequestHeadError: Error, Equatable {
    /// Longer than `limits.maxHeaderBytes`: 414.
    case requestLineTooLong
    /// No `HTTP/x.y` at its end, or a bare LF: 400.
    case malformedRequestLine
}
