import Batch
import FileIO
import Ingest

/// What the plan of an ingest run cannot see by itself: a video's storyboard sheets, named after
/// its WebVTT file when they are written (`clip.mp4.storyboard.sheet-1.jpg`), in the same folders
/// as every other input's outputs.
public enum IngestPlan {
    /// The inputs without those that are another input's sheets (a run's own outputs, found in a
    /// folder it writes: a second run over its out-dir); refused, as two inputs writing one file
    /// are, when an output of one input would be named as a sheet of another's storyboard.
    public static func keepingSheetsApart(_ inputs: [BatchInput], plan: OutputPlan,
                                          recipe: IngestRecipe) throws(OutputPlanError) -> (inputs: [BatchInput], passedOver: Int) {
        guard let storyboard = recipe.storyboard else { return (inputs, 0) }
        let storyboardTemplate = recipe.storyboardTemplate
        let sheetExtension = "." + storyboard.format.fileExtension
        // Each storyboard's place without `.vtt`, and whose it is.
        var storyboards: [[UInt8]: String] = [:]
        let listed = inputs.filter { $0.problem == nil }
        let outputs = listed.map { plan.outputs(for: $0) }
        for (input, planned) in zip(listed, outputs) {
            guard let vtt = planned.first(where: { $0.variant == storyboardTemplate })?.path else { continue }
            storyboards[OutputPlan.place(of: vtt.lowercased().hasSuffix(".vtt") ? String(vtt.dropLast(4)) : vtt)] = input.path
        }
        /// Whose sheet `path` would be: `STEM.sheet-N.EXT` of a storyboard `STEM.vtt`.
        func sheetOwner(_ path: String) -> String? {
            guard path.hasSuffix(sheetExtension) else { return nil }
            let name = path.dropLast(sheetExtension.count)
            let number = name.reversed().prefix { $0.isASCII && $0.isNumber }
            guard !number.isEmpty else { return nil }
            let beforeNumber = name.dropLast(number.count)
            guard beforeNumber.hasSuffix(".sheet-") else { return nil }
            return storyboards[OutputPlan.place(of: String(beforeNumber.dropLast(".sheet-".count)))]
        }
        for (input, planned) in zip(listed, outputs) {
            for output in planned {
                if let owner = sheetOwner(output.path) {
                    throw .collision(output: output.path, first: owner, second: input.path,
                                     remedy: "a storyboard's sheets are named after its WebVTT file (STEM.sheet-N.\(storyboard.format.fileExtension)): the recipe's names must keep them apart from the other outputs")
                }
            }
        }
        let kept = inputs.filter { !$0.isFoundInFolder || $0.problem != nil || sheetOwner($0.path) == nil }
        return (kept, inputs.count - kept.count)
    }
}
