import AASAKit
