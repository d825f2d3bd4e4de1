/// The page at `/`: one HTML file with its script and styles, built into the binary.
enum WebPage {
    static let html: [UInt8] = PackageResources.index_html
}
