class GraphModule(torch.nn.Module):
    def forward(self):
        # File: /work/wt-specaug/tests/data/numpy_random/make_numpy_random.py:34 in compute_mask, code: epsilon = np.random.rand(1).item()  # noqa: F821  (np imported in main, after TORCH_TRACE is set)
        wrapped_rand: "f64[1][1]cpu" = torch__dynamo_utils_wrapped_rand(1)
        return (wrapped_rand,)
