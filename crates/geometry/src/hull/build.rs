//! Convex hull of a point cloud. (Being written: see `ConvexHull::try_from_points`.)
