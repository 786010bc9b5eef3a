// Being written (issue 6): the profile flow.
export {};
