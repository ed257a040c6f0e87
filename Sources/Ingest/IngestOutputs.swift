/// What each output of an ingest is, by the variant the run's plan names it with (its file name
/// template, which the plan fills in for each input): the manifest first, as the planned output
/// moved into place last, so that a manifest found means every output it names is there.
public enum IngestOutput: Sendable, Hashable {
    case manifest
    case rendition(index: Int)
    case storyboard
    case preview
    case webVideo
    case original
    case motionVideo
}

extension IngestRecipe {
    /// The web video's file: its MP4, or its ladder's master playlist.
    public var webVideoTemplate: String { webVideo?.hls == true ? names.hls : names.webVideo }

    /// Every output an input may have, with its template, in the plan's order.
    public var outputs: [(output: IngestOutput, template: String)] {
        [(.manifest, names.manifest)]
            + renditions.indices.map { (.rendition(index: $0), renditionTemplate(renditions[$0])) }
            + (storyboard == nil ? [] : [(.storyboard, storyboardTemplate)])
            + (preview == nil ? [] : [(.preview, previewTemplate)])
            + (webVideo == nil ? [] : [(.webVideo, webVideoTemplate)])
            + (writesStrippedOriginal ? [(.original, names.original)] : [])
            + [(.motionVideo, names.motionVideo)]
    }
}
