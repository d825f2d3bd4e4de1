import CCurl
import LightShowCore

/// HTTPS requests to one Hue bridge through libcurl, on one reused connection. Owns its curl handle, freed in
/// deinit; used by one thread at a time.
///
/// The bridge's certificate is pinned by its SHA-256 (trust on first use, as ssh does): OpenSSL's chain check is
/// replaced by one that compares the certificate with the pin during the handshake, so no request, and no key, goes
/// out to a bridge that doesn't match. Without a pin (first pairing) any certificate is taken and `certificate`
/// says which it was.
final class HueBridgeClient {
    /// What one request got back.
    struct Response {
        var status: Int
        var body: [UInt8]
        /// The `hue-application-id` header, when the bridge sent one (GET /auth/v1).
        var applicationID: String?
    }

    /// Longest response body taken: the bridge's resource lists are a few kilobytes.
    static let maximumBody = 1 << 20

    private let curl: CurlLibrary
    private let handle: CurlLibrary.Handle
    private let pin: CertificatePin
    /// `https://192.168.1.30:443`: the bridge's resolved address, so no name is looked up per request.
    let base: String

    /// The certificate check and what it saw, reachable from OpenSSL's callback through the handle's SSL context.
    private final class CertificatePin {
        let openSSL: OpenSSLLibrary
        let expected: String?
        var seen: String?
        init(openSSL: OpenSSLLibrary, expected: String?) {
            self.openSSL = openSSL
            self.expected = expected
        }
    }

    /// The body collected by the write callback, capped.
    private final class Body {
        var bytes: [UInt8] = []
        var overflowed = false
    }

    init(base: String, pinnedCertificate: String?) throws(LightShowError) {
        curl = try CurlLibrary.load()
        pin = CertificatePin(openSSL: try OpenSSLLibrary.load(), expected: pinnedCertificate)
        guard let handle = curl.curl_easy_init() else { throw LightShowError("libcurl: curl_easy_init failed", exitStatus: .ioError) }
        self.handle = handle
        self.base = base
    }

    deinit {
        curl.curl_easy_cleanup(handle)
    }

    /// The SHA-256 of the certificate the bridge presented on the newest connection (lowercase hex).
    var certificate: String? { pin.seen }

    /// The methods the Hue API is asked with.
    enum Method: String {
        case get = "GET", post = "POST", put = "PUT"
    }

    /// Sends `method path` with an optional JSON body and application key, waiting at most `timeout` seconds.
    func request(
        _ method: Method, _ path: String, body: [UInt8]? = nil, key: String? = nil, timeout: Double
    ) throws(HueBridgeError) -> Response {
        let received = Body()
        var headers: UnsafeMutablePointer<curl_slist>? = curl.curl_slist_append(nil, "Content-Type: application/json")
        if let key { headers = curl.curl_slist_append(headers, "hue-application-key: \(key)") }
        defer { curl.curl_slist_free_all(headers) }
        let payload = body ?? []
        let code: CURLcode = withExtendedLifetime((received, pin, payload)) {
            payload.withUnsafeBytes { bytes in
                configure(url: base + path, headers: headers, timeout: timeout, received: received)
                if body != nil {
                    _ = curl.set(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
                    _ = curl.set(handle, CURLOPT_POSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1))
                } else {
                    _ = curl.set(handle, CURLOPT_HTTPGET, 1)
                }
                _ = curl.set(handle, CURLOPT_CUSTOMREQUEST, nil as UnsafeRawPointer?)
                return method != .put ? curl.curl_easy_perform(handle) : method.rawValue.withCString { name in
                    _ = curl.set(handle, CURLOPT_CUSTOMREQUEST, UnsafeRawPointer(name))
                    return curl.curl_easy_perform(handle)
                }
            }
        }
        _ = curl.set(handle, CURLOPT_CUSTOMREQUEST, nil as UnsafeRawPointer?)
        if let expected = pin.expected, let seen = pin.seen, seen != expected {
            throw .certificateChanged(pinned: expected, presented: seen)
        }
        guard code == CURLE_OK else {
            if received.overflowed { throw .badResponse("a reply longer than \(Self.maximumBody) bytes") }
            throw .unreachable(curl.describe(code))
        }
        var response = Response(status: curl.info(handle, CURLINFO_RESPONSE_CODE), body: received.bytes)
        var header: UnsafeMutablePointer<curl_header>?
        if curl.curl_easy_header(handle, "hue-application-id", 0, UInt32(CURLH_HEADER), -1, &header) == CURLHE_OK,
           let value = header?.pointee.value {
            response.applicationID = String(cString: value)
        }
        return response
    }

    private func configure(
        url: String, headers: UnsafeMutablePointer<curl_slist>?, timeout: Double, received: Body
    ) {
        let milliseconds = timeout.isFinite ? Int(min(60_000, max(100, timeout * 1000))) : 5000
        _ = url.withCString { curl.set(handle, CURLOPT_URL, UnsafeRawPointer($0)) }
        _ = "https".withCString { curl.set(handle, CURLOPT_PROTOCOLS_STR, UnsafeRawPointer($0)) }
        _ = curl.set(handle, CURLOPT_NOSIGNAL, 1)
        _ = curl.set(handle, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = curl.set(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        _ = curl.set(handle, CURLOPT_HTTPHEADER, UnsafeRawPointer(headers))
        _ = curl.set(handle, CURLOPT_WRITEFUNCTION, unsafeBitCast(Self.collect, to: UnsafeRawPointer.self))
        _ = curl.set(handle, CURLOPT_WRITEDATA, UnsafeRawPointer(Unmanaged.passUnretained(received).toOpaque()))
        // Peer verification stays on so OpenSSL acts on the pin check's verdict; the check replaces the chain
        // check (a bridge's certificate is signed by Signify, not a public CA, and names the bridge, not its address).
        _ = curl.set(handle, CURLOPT_SSL_VERIFYPEER, 1)
        _ = curl.set(handle, CURLOPT_SSL_VERIFYHOST, 0)
        _ = curl.set(handle, CURLOPT_SSL_CTX_FUNCTION, unsafeBitCast(Self.installPinCheck, to: UnsafeRawPointer.self))
        _ = curl.set(handle, CURLOPT_SSL_CTX_DATA, UnsafeRawPointer(Unmanaged.passUnretained(pin).toOpaque()))
    }

    private static let collect: CurlLibrary.WriteCallback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
        let (length, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, body.bytes.count + length <= maximumBody else {
            body.overflowed = true
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { body.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
        return length
    }

    private static let installPinCheck: CurlLibrary.SSLContextCallback = { _, context, data in
        guard let context, let data else { return CURLE_SSL_CERTPROBLEM }
        let pin = Unmanaged<CertificatePin>.fromOpaque(data).takeUnretainedValue()
        pin.openSSL.SSL_CTX_set_cert_verify_callback(OpaquePointer(context), checkPin, data)
        return CURLE_OK
    }

    private static let checkPin: OpenSSLLibrary.CertificateVerifyCallback = { store, data in
        guard let store, let data else { return 0 }
        let pin = Unmanaged<CertificatePin>.fromOpaque(data).takeUnretainedValue()
        guard let certificate = pin.openSSL.X509_STORE_CTX_get0_cert(store),
              let digest = pin.openSSL.sha256(ofCertificate: certificate) else { return 0 }
        pin.seen = digest
        guard let expected = pin.expected else { return 1 }
        return digest == expected ? 1 : 0
    }
}

/// Why a request to a bridge failed.
enum HueBridgeError: Error, Equatable, CustomStringConvertible {
    /// The bridge presented a certificate other than the one pinned at pairing.
    case certificateChanged(pinned: String, presented: String)
    /// No connection or no reply (libcurl's reason).
    case unreachable(String)
    /// A reply that isn't what the API promises.
    case badResponse(String)

    var description: String {
        switch self {
        case .certificateChanged(let pinned, let presented):
            "its certificate changed (SHA-256 \(presented), paired with \(pinned))"
        case .unreachable(let reason): reason
        case .badResponse(let reason): "unexpected reply: \(reason)"
        }
    }
}
