import Imaging

extension DecodeLimits {
    /// The same limits, their memory reserved from `lender`'s budget (a worker's, which is its
    /// parent's and shared by the parent's workers) within their own `maxMemory`.
    func lent(by lender: MemoryBudget.Lender?) -> DecodeLimits {
        var limits = self
        limits.budget = MemoryBudget(total: maxMemory, lender: lender)
        return limits
    }
}
