import CCurl
import LightShowCore
import LightShowSystem

/// libcurl (the OpenSSL build, Debian's libcurl4), opened the first time a Hue bridge is asked something rather
/// than linked: a lightshow without Hue neither loads nor needs it. CCurl provides the types, the constants and the
/// shims for the variadic `curl_easy_setopt` and `curl_easy_getinfo`; the functions come from here.
struct CurlLibrary: @unchecked Sendable {
    static let soname = "libcurl.so.4"

    /// Opened and initialised once, on first use; the outcome is kept, so a missing library reads the same each time.
    private static let shared = DynamicLibrary.opened(soname, package: "libcurl4", neededBy: "Hue") {
        library throws(DynamicLibraryError) in
        let curl = try CurlLibrary(library)
        _ = curl.curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return curl
    }

    /// The open library, or why it can't be opened.
    static func load() throws(LightShowError) -> CurlLibrary {
        try shared.get()
    }

    typealias Handle = UnsafeMutableRawPointer
    typealias WriteCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
    typealias SSLContextCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> CURLcode

    let curl_global_init: @convention(c) (Int) -> CURLcode
    let curl_easy_init: @convention(c) () -> Handle?
    let curl_easy_cleanup: @convention(c) (Handle?) -> Void
    let curl_easy_perform: @convention(c) (Handle?) -> CURLcode
    let curl_easy_strerror: @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    let curl_easy_header: @convention(c) (Handle?, UnsafePointer<CChar>?, Int, UInt32, Int32, UnsafeMutablePointer<UnsafeMutablePointer<curl_header>?>?) -> CURLHcode
    let curl_slist_append: @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
    let curl_slist_free_all: @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void
    /// The variadic functions, called through CCurl's shims.
    private let setopt: UnsafeMutableRawPointer
    private let getinfo: UnsafeMutableRawPointer

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        curl_global_init = try library.function("curl_global_init")
        curl_easy_init = try library.function("curl_easy_init")
        curl_easy_cleanup = try library.function("curl_easy_cleanup")
        curl_easy_perform = try library.function("curl_easy_perform")
        curl_easy_strerror = try library.function("curl_easy_strerror")
        curl_easy_header = try library.function("curl_easy_header")
        curl_slist_append = try library.function("curl_slist_append")
        curl_slist_free_all = try library.function("curl_slist_free_all")
        setopt = try library.function("curl_easy_setopt", as: UnsafeMutableRawPointer.self)
        getinfo = try library.function("curl_easy_getinfo", as: UnsafeMutableRawPointer.self)
    }

    func set(_ handle: Handle, _ option: CURLoption, _ value: Int) -> CURLcode {
        lightshow_curl_setopt_long(setopt, handle, option, value)
    }

    func set(_ handle: Handle, _ option: CURLoption, _ value: UnsafeRawPointer?) -> CURLcode {
        lightshow_curl_setopt_pointer(setopt, handle, option, value)
    }

    func info(_ handle: Handle, _ item: CURLINFO) -> Int {
        var value = 0
        _ = lightshow_curl_getinfo_long(getinfo, handle, item, &value)
        return value
    }

    /// libcurl's text for a result code.
    func describe(_ code: CURLcode) -> String {
        curl_easy_strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
    }
}
