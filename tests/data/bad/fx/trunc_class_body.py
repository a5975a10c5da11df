class GraphModule(torch.nn.Module):
