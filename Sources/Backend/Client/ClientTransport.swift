/// Which HTTP client carries a request.
package enum ClientTransport: String, Sendable, Equatable, Codable {
    /// The socket client for `http://` (every local llama-server), URLSession for `https://`.
    case automatic
    /// URLSession for every URL: how `bench backend` measures what it costs beside the socket client.
    case urlSession = "urlsession"
}
