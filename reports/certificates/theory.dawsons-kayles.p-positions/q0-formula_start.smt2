; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let (($x64638 (or (= 0 (+ n 34)) (= 1 (+ n 34)) (= 15 (+ n 34)) (= 35 (+ n 34)) (= 5 (mod (+ n 34) 34)) (= 9 (mod (+ n 34) 34)) (= 21 (mod (+ n 34) 34)) (= 25 (mod (+ n 34) 34)) (= 29 (mod (+ n 34) 34)))))
(let (($x338997 (or (= 0 n) (= 1 n) (= 15 n) (= 35 n) (= 5 (mod n 34)) (= 9 (mod n 34)) (= 21 (mod n 34)) (= 25 (mod n 34)) (= 29 (mod n 34)))))
(let (($x352728 (= $x338997 $x64638)))
(let (($x310029 (>= n 53)))
(and $x310029 (or (and (distinct true true) true) (and true (not $x352728)))))))))
(check-sat)
