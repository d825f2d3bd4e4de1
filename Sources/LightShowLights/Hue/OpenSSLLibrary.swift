import COpenSSL
import LightShowCore
import LightShowSystem

/// OpenSSL's libssl and libcrypto, opened the first time a Hue output or pairing needs them rather than linked: a
/// lightshow without Hue neither loads nor needs them. COpenSSL provides the types and constants; the functions
/// come from here. Their macros (`DTLSv1_get_timeout`, `SSL_CTX_set_min_proto_version`, …) are the `*_ctrl` calls.
struct OpenSSLLibrary: Sendable {
    static let sonames = ("libssl.so.3", "libcrypto.so.3")

    /// Opened once, on first use; the outcome is kept, so a missing library reads the same each time.
    private static let shared = DynamicLibrary.opened(sonames.0, package: "libssl3", neededBy: "Hue") {
        ssl throws(DynamicLibraryError) in try OpenSSLLibrary(ssl: ssl, crypto: DynamicLibrary(sonames.1))
    }

    /// The open library, or why it can't be opened.
    static func load() throws(LightShowError) -> OpenSSLLibrary {
        try shared.get()
    }

    typealias Handle = OpaquePointer
    typealias PSKClientCallback = @convention(c) (
        Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UInt32, UnsafeMutablePointer<UInt8>?, UInt32
    ) -> UInt32
    typealias CertificateVerifyCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?) -> Int32

    let DTLS_client_method: @convention(c) () -> Handle?
    let SSL_CTX_new: @convention(c) (Handle?) -> Handle?
    let SSL_CTX_free: @convention(c) (Handle?) -> Void
    let SSL_CTX_ctrl: @convention(c) (Handle?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_CTX_set_cipher_list: @convention(c) (Handle?, UnsafePointer<CChar>?) -> Int32
    let SSL_CTX_set_psk_client_callback: @convention(c) (Handle?, PSKClientCallback?) -> Void
    let SSL_CTX_set_cert_verify_callback: @convention(c) (Handle?, CertificateVerifyCallback?, UnsafeMutableRawPointer?) -> Void
    let SSL_new: @convention(c) (Handle?) -> Handle?
    let SSL_free: @convention(c) (Handle?) -> Void
    let SSL_set_bio: @convention(c) (Handle?, Handle?, Handle?) -> Void
    let SSL_connect: @convention(c) (Handle?) -> Int32
    let SSL_write: @convention(c) (Handle?, UnsafeRawPointer?, Int32) -> Int32
    let SSL_read: @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32) -> Int32
    let SSL_shutdown: @convention(c) (Handle?) -> Int32
    let SSL_get_error: @convention(c) (Handle?, Int32) -> Int32
    let SSL_ctrl: @convention(c) (Handle?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_set_ex_data: @convention(c) (Handle?, Int32, UnsafeMutableRawPointer?) -> Int32
    let SSL_get_ex_data: @convention(c) (Handle?, Int32) -> UnsafeMutableRawPointer?
    let BIO_new_dgram: @convention(c) (Int32, Int32) -> Handle?
    let BIO_ctrl: @convention(c) (Handle?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let BIO_free: @convention(c) (Handle?) -> Int32
    let BIO_number_read: @convention(c) (Handle?) -> UInt64
    let ERR_get_error: @convention(c) () -> UInt
    let ERR_error_string_n: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    let ERR_clear_error: @convention(c) () -> Void
    let X509_STORE_CTX_get0_cert: @convention(c) (Handle?) -> Handle?
    let X509_digest: @convention(c) (Handle?, Handle?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32
    let EVP_sha256: @convention(c) () -> Handle?

    private init(ssl: DynamicLibrary, crypto: DynamicLibrary) throws(DynamicLibraryError) {
        DTLS_client_method = try ssl.function("DTLS_client_method")
        SSL_CTX_new = try ssl.function("SSL_CTX_new")
        SSL_CTX_free = try ssl.function("SSL_CTX_free")
        SSL_CTX_ctrl = try ssl.function("SSL_CTX_ctrl")
        SSL_CTX_set_cipher_list = try ssl.function("SSL_CTX_set_cipher_list")
        SSL_CTX_set_psk_client_callback = try ssl.function("SSL_CTX_set_psk_client_callback")
        SSL_CTX_set_cert_verify_callback = try ssl.function("SSL_CTX_set_cert_verify_callback")
        SSL_new = try ssl.function("SSL_new")
        SSL_free = try ssl.function("SSL_free")
        SSL_set_bio = try ssl.function("SSL_set_bio")
        SSL_connect = try ssl.function("SSL_connect")
        SSL_write = try ssl.function("SSL_write")
        SSL_read = try ssl.function("SSL_read")
        SSL_shutdown = try ssl.function("SSL_shutdown")
        SSL_get_error = try ssl.function("SSL_get_error")
        SSL_ctrl = try ssl.function("SSL_ctrl")
        SSL_set_ex_data = try ssl.function("SSL_set_ex_data")
        SSL_get_ex_data = try ssl.function("SSL_get_ex_data")
        BIO_new_dgram = try crypto.function("BIO_new_dgram")
        BIO_ctrl = try crypto.function("BIO_ctrl")
        BIO_free = try crypto.function("BIO_free")
        BIO_number_read = try crypto.function("BIO_number_read")
        ERR_get_error = try crypto.function("ERR_get_error")
        ERR_error_string_n = try crypto.function("ERR_error_string_n")
        ERR_clear_error = try crypto.function("ERR_clear_error")
        X509_STORE_CTX_get0_cert = try crypto.function("X509_STORE_CTX_get0_cert")
        X509_digest = try crypto.function("X509_digest")
        EVP_sha256 = try crypto.function("EVP_sha256")
    }

    /// OpenSSL's queued errors as text (the newest last), emptying the queue; nil when there were none.
    func takeErrors() -> String? {
        var texts: [String] = []
        while texts.count < 8 {
            let code = ERR_get_error()
            guard code != 0 else { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            texts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        ERR_clear_error()
        return texts.isEmpty ? nil : texts.joined(separator: "; ")
    }

    /// The SHA-256 of a certificate's DER encoding (what `openssl x509 -fingerprint -sha256` prints), lowercase hex.
    func sha256(ofCertificate certificate: Handle) -> String? {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1, length == 32 else { return nil }
        return HexText.encode(digest)
    }
}
