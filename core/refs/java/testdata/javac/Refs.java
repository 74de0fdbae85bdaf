import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.PackageTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Name;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The ground truth of rubi's Java references, from the Java compiler itself
 * (javac's tree API): every use, in the files given, of a class, interface,
 * enum, record, annotation type or method that those files declare, one line
 * each, "PATH:LINE TARGET::NAME", named as rubi names a symbol (a method by
 * its class's simple name, a nested type by its enclosing type's). Imports,
 * the package clause, constructors (rubi reports new T() as a use of T),
 * fields and variables are left out. Usage: java Refs.java ROOT [--javac
 * OPTION ...] -- FILE ... (files relative to ROOT).
 */
public class Refs {
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        List<String> options = new ArrayList<>(List.of("-proc:none", "-Xlint:none", "-nowarn", "-XDshould-stop.ifError=FLOW"));
        List<File> files = new ArrayList<>();
        boolean inFiles = false;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--")) {
                inFiles = true;
            } else if (inFiles) {
                files.add(root.resolve(args[i]).toFile());
            } else if (!args[i].equals("--javac")) {
                options.add(args[i]);
            }
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = compiler.getStandardFileManager(null, null, null);
        JavacTask task = (JavacTask) compiler.getTask(null, fm, d -> { }, options, null, fm.getJavaFileObjectsFromFiles(files));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        Trees trees = Trees.instance(task);
        SourcePositions positions = trees.getSourcePositions();
        for (CompilationUnitTree cu : units) {
            String path = rel(root, cu);
            CharSequence text = cu.getSourceFile().getCharContent(true);
            LineMap lines = cu.getLineMap();
            Set<String> seen = new HashSet<>();
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitImport(ImportTree t, Void v) {
                    return null;
                }

                @Override
                public Void visitPackage(PackageTree t, Void v) {
                    return null;
                }

                @Override
                public Void visitIdentifier(IdentifierTree t, Void v) {
                    use(getCurrentPath(), t.getName(), positions.getStartPosition(cu, t));
                    return super.visitIdentifier(t, v);
                }

                @Override
                public Void visitMemberSelect(MemberSelectTree t, Void v) {
                    long end = positions.getEndPosition(cu, t);
                    use(getCurrentPath(), t.getIdentifier(), end - t.getIdentifier().length());
                    return super.visitMemberSelect(t, v);
                }

                @Override
                public Void visitMemberReference(MemberReferenceTree t, Void v) {
                    long end = positions.getEndPosition(cu, t);
                    use(getCurrentPath(), t.getName(), end - t.getName().length());
                    return super.visitMemberReference(t, v);
                }

                private void use(TreePath at, Name name, long pos) {
                    // What javac wrote itself (a default constructor's
                    // super(), an enum's values()) is not in the text.
                    if (pos < 0 || pos + name.length() > text.length() || !text.subSequence((int) pos, (int) pos + name.length()).toString().contentEquals(name)) {
                        return;
                    }
                    Element e = trees.getElement(at);
                    if (e == null) {
                        return;
                    }
                    ElementKind k = e.getKind();
                    if (!(k.isClass() || k.isInterface() || k == ElementKind.METHOD)) {
                        return;
                    }
                    TreePath decl = trees.getPath(e);
                    if (decl == null || e.getSimpleName().isEmpty()) {
                        return; // not declared in the files given
                    }
                    String target = e.getSimpleName().toString();
                    Element outer = e.getEnclosingElement();
                    if (outer != null && (outer.getKind().isClass() || outer.getKind().isInterface())) {
                        if (outer.getSimpleName().isEmpty()) {
                            return; // a member of an anonymous class
                        }
                        target = outer.getSimpleName() + "." + target;
                    }
                    String line = path + ":" + lines.getLineNumber(pos) + " " + rel(root, decl.getCompilationUnit()) + "::" + target;
                    // A record's component is read again in the members
                    // javac derives from it, at the same place.
                    if (seen.add(pos + " " + line)) {
                        System.out.println(line);
                    }
                }
            }.scan(cu, null);
        }
    }

    private static String rel(Path root, CompilationUnitTree cu) {
        return root.relativize(Path.of(cu.getSourceFile().toUri()).normalize()).toString().replace(File.separatorChar, '/');
    }
}
